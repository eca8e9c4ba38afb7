import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readEvalFile } from '../../src/eval/read-eval-file.js';
import { ROOT } from '../helpers/run-toolrun.js';

/** The JSON Schema editors complete eval files with (schemas/toolrun-eval.schema.json) says what toolrun reads. */
const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/toolrun-eval.schema.json'), 'utf8'));
const validate = new Ajv2020({ strict: false }).compile(schema);
const example = join(ROOT, 'fixtures/eval/weather.eval.yaml');

describe('eval files: the schema and the reader agree', () => {
  it('the shipped example is valid against the schema and reads with its defaults', () => {
    const text = readFileSync(example, 'utf8');
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
    const file = readEvalFile(example, text);
    expect(file.cases.map((each) => [each.name, each.runs, each.place.line])).toEqual([
      ['picks the forecast', 3, 3],
      ['time then weather, in order', 1, 12],
    ]);
    expect(file.cases[0]!.expect).toEqual({
      calls: [{ tool: 'get_weather', args: { city: 'Paris', days: { gte: 1 } } }],
      order: 'any',
      forbid: ['delete_city'],
      maxTurns: 3,
      answer: { matches: '[Ss]unny' },
    });
    expect(file.cases[1]!.expect).toEqual({ calls: [{ tool: 'get_time', args: { city: 'Oslo' } }, { tool: 'get_weather' }], order: 'exact', forbid: [], maxTurns: 5, answer: 'Oslo' });
  });

  it.each([
    ['no cases', 'server: x\n', 'e.eval.yaml:1:1: the file has no `cases:` list'],
    ['an unknown file key', 'cases: []\ntests: []\n', 'e.eval.yaml:2:1: unknown file key "tests"; file keys are server, cases'],
    ['empty cases', 'cases: []\n', 'e.eval.yaml:1:8: `cases:` is empty'],
    ['a case without a prompt', 'cases:\n  - { name: a, expect: {} }\n', 'e.eval.yaml:2:5: this case has no `prompt:`'],
    ['an unknown expect key', 'cases:\n  - { name: a, prompt: p, expect: { tools: [] } }\n', 'e.eval.yaml:2:37: unknown expect key "tools"; expect keys are calls, order, forbid, maxTurns, answer'],
    ['a bad order', 'cases:\n  - { name: a, prompt: p, expect: { order: sorted } }\n', 'e.eval.yaml:2:44: `order:` is any (each call made, others allowed) or exact'],
    ['runs: 0', 'cases:\n  - { name: a, prompt: p, runs: 0, expect: {} }\n', 'e.eval.yaml:2:33: `runs:` is a whole number from 1 to 1000'],
    ['a call without a tool', 'cases:\n  - { name: a, prompt: p, expect: { calls: [{ args: {} }] } }\n', 'e.eval.yaml:2:45: this call has no `tool:`'],
    [
      'a bad matcher regex',
      'cases:\n  - { name: a, prompt: p, expect: { calls: [{ tool: t, args: { q: { matches: "(" } } }] } }\n',
      'e.eval.yaml:2:67: `matches:` does not parse as a regular expression',
    ],
    ['an answer that is a number', 'cases:\n  - { name: a, prompt: p, expect: { answer: 5 } }\n', 'e.eval.yaml:2:45: `answer:` is a text the answer contains, or a matcher'],
    ['two cases of one name', 'cases:\n  - { name: a, prompt: p, expect: {} }\n  - { name: a, prompt: q, expect: {} }\n', 'e.eval.yaml:3:5: two cases are named "a" (the other at line 2)'],
    [
      'two names that give one cassette folder',
      'cases:\n  - { name: Paris weather, prompt: p, expect: {} }\n  - { name: "paris: weather!", prompt: q, expect: {} }\n',
      'e.eval.yaml:3:5: cases "Paris weather" (line 2) and "paris: weather!" would share the cassette folder paris-weather: rename one',
    ],
    ['not YAML', 'cases: [\n', 'e.eval.yaml:2:1: not valid YAML or JSON'],
  ])('%s is exit 3 at its place, with the fix', (_what, text, message) => {
    let thrown: unknown;
    try {
      readEvalFile('e.eval.yaml', text);
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).toContain(message);
    expect((thrown as { kind?: string }).kind).toBe('config');
  });
});
