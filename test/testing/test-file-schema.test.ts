import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readTestFile } from '../../src/testing/read-test-file.js';
import { ROOT } from '../helpers/run-toolrun.js';

/** The JSON Schema editors complete test files with (schemas/toolrun-test.schema.json) says what toolrun reads. */
const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/toolrun-test.schema.json'), 'utf8'));
const validate = new Ajv2020({ strict: false }).compile(schema);
const example = join(ROOT, 'fixtures/tests/everything.toolrun.yaml');

describe('the test file schema and the reader agree', () => {
  it('the shipped example is valid against the schema and reads without error', () => {
    const text = readFileSync(example, 'utf8');
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
    expect(readTestFile(example, text, {}).tests).toHaveLength(7);
  });

  it("validate: on the file and on a step: accepted by both, the step's own word winning, for call: steps only", () => {
    const text = 'validate: false\ntests:\n  - { name: a, call: x }\n  - { name: b, call: x, validate: true }\n  - { name: c, list: tools }\n';
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
    expect(readTestFile('t.toolrun.yaml', text, {}).tests.map((test) => test.validate)).toEqual([false, undefined, undefined]);
    expect(() => readTestFile('t.toolrun.yaml', 'tests:\n  - { name: a, read: "x://y", validate: false }\n', {})).toThrow('t.toolrun.yaml:2:41: `validate: false` is for call: steps');
  });

  it("skill: and list: skills steps (the Skills extension): accepted by both, SERVER: split off but not a URI's scheme", () => {
    const text = 'tests:\n  - { name: a, skill: docs:acme/refunds }\n  - { name: b, skill: "skill://git-workflow/SKILL.md", server: docs }\n  - { name: c, list: skills, server: docs }\n';
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
    expect(readTestFile('t.toolrun.yaml', text, {}).tests.map((test) => [test.server, test.action])).toEqual([
      ['docs', { kind: 'skill', skill: 'acme/refunds' }],
      ['docs', { kind: 'skill', skill: 'skill://git-workflow/SKILL.md' }],
      ['docs', { kind: 'list', what: 'skills' }],
    ]);
  });

  it.each([
    ['an unknown matcher', 'tests:\n  - { name: a, call: x, expect: { txt: hi } }\n', 'unknown matcher "txt"'],
    ['two actions in one step', 'tests:\n  - { name: a, call: x, read: "y://z" }\n', 'a step does one thing: it has call and read'],
    ['a test without a name', 'tests:\n  - { call: x }\n', 'this test has no `name:`'],
    ['a list: of something else', 'tests:\n  - { name: a, list: servers }\n', 'list: takes tools, resources, prompts or skills'],
    ['a timeout that is not a number', 'tests:\n  - { name: a, call: x, timeout: soon }\n', '`timeout:` is a number of milliseconds over 0'],
    ['a validate: that is not true or false', 'tests:\n  - { name: a, call: x, validate: no }\n', '`validate:` is true or false'],
    ['an error: with an unknown key', 'tests:\n  - { name: a, call: x, expect: { error: { kind: x } } }\n', '`error:` takes code and message, not "kind"'],
  ])('%s: refused by both, at its place', (_, text, message) => {
    expect(validate(parse(text))).toBe(false);
    expect(() => readTestFile('t.toolrun.yaml', text, {})).toThrow(message);
    expect(() => readTestFile('t.toolrun.yaml', text, {})).toThrow(/^t\.toolrun\.yaml:\d+:\d+: /);
  });
});
