import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';
import { tempDir, writeTempConfig } from '../helpers/temp-config.js';

// toolrun eval end to end, in process, against a scripted OpenAI-compatible model: each path of a
// case (right call, wrong tool, bad arguments, too many turns, a host's renaming) is one script.

const weatherTool = (name: string, response: string) => ({
  name,
  description: `${name} of a city`,
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  implementation: { type: 'mock', mock_response: response },
});

let model: ScriptedModel;
let config: string;
let folder: string;

beforeAll(async () => {
  model = await startScriptedModel();
  config = writeTempConfig({ tools: [weatherTool('get_weather', 'sunny, 21 C'), weatherTool('get_time', '12:00'), weatherTool('delete_city', 'deleted')] });
  folder = tempDir();
});
afterAll(() => model.stop());

function evalFile(name: string, text: string): string {
  const path = join(folder, `${name}.eval.yaml`);
  writeFileSync(path, text);
  return path;
}

const WEATHER_CASE = `cases:
  - name: picks the weather
    prompt: What is the weather in Paris?
    expect:
      calls: [{ tool: get_weather, args: { city: Paris } }]
      forbid: [delete_city]
      maxTurns: 3
      answer: sunny
`;

async function evalJson(file: string, extra: string[] = []) {
  const result = await runInProcess(['--config', config, 'eval', file, '--model', 'compatible:scripted', '--base-url', model.baseUrl, '--json', ...extra]);
  return { ...result, report: result.stdout ? (JSON.parse(result.stdout) as { cases: Array<Record<string, unknown>>; success: boolean }) : undefined };
}

describe('toolrun eval against a scripted model', () => {
  it('the right call with the right arguments passes, with tokens, the turns and the calls', async () => {
    model.script({ turns: [{ calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { text: 'It is sunny in Paris.' }] });
    const before = model.requests.length;
    const { exitCode, report } = await evalJson(evalFile('right', WEATHER_CASE));
    expect(exitCode).toBe(0);
    const [only] = report!.cases;
    expect(only).toMatchObject({
      name: 'picks the weather',
      prompt: 'What is the weather in Paris?',
      model: 'compatible:scripted',
      met: true,
      passed: 1,
      runs: 1,
      pass_rate: 1,
      tokens: { input: 200, output: 20 },
      failures: [],
    });
    expect(only!.interval).toEqual({ low: 0.2065, high: 1 });
    const run = (only!.results as Array<{ turns: Array<{ calls: unknown[]; text: string }> }>)[0]!;
    expect(run.turns.map((turn) => turn.calls)).toEqual([[{ called_as: 'get_weather', tool: 'get_weather', args: { city: 'Paris' }, output: 'sunny, 21 C', failed: false }], []]);
    // What the model was sent: temperature 0 and the fixed seed; the tool's result fed back as the tool message.
    const sent = model.requests.slice(before);
    expect(sent.map((request) => [request.body.temperature, request.body.seed])).toEqual([
      [0, 52],
      [0, 52],
    ]);
    expect((sent[1]!.body.messages as Array<{ role: string; content: unknown }>).at(-1)).toMatchObject({ role: 'tool', content: 'sunny, 21 C' });
  });

  it('the wrong tool fails the case, exit 1, and the table says which tool it called', async () => {
    model.script({ turns: [{ calls: [{ name: 'get_time', arguments: { city: 'Paris' } }] }, { text: 'It is noon; sunny.' }] });
    const { exitCode, stdout } = await runInProcess(['--config', config, 'eval', evalFile('wrong', WEATHER_CASE), '--model', 'compatible:scripted', '--base-url', model.baseUrl]);
    expect(exitCode).toBe(1);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^✖ picks the weather · compatible:scripted · 0\/1 0% \[0%–79%\] · 200 in \/ 20 out tokens · \d+ ms$/);
    expect(lines[1]).toBe('    expected a call to get_weather; the model called get_time');
    expect(lines.at(-1)).toMatch(/^0 met, 1 below the pass rate 100% \(1 case × model, \d+\.\d s\)$/);
  });

  it('bad arguments fail, naming the argument; a forbidden tool is named too', async () => {
    model.script({
      turns: [
        {
          calls: [
            { name: 'get_weather', arguments: { city: 'London' } },
            { name: 'delete_city', arguments: { city: 'Paris' } },
          ],
        },
        { text: 'sunny' },
      ],
    });
    const { exitCode, report } = await evalJson(evalFile('bad-args', WEATHER_CASE));
    expect(exitCode).toBe(1);
    expect(report!.cases[0]!.failures).toEqual(['called delete_city, which the case forbids', 'get_weather was called with city: expected "Paris", got "London"']);
  });

  it('arguments against the schema reach no tool: the model is told the error and the case fails', async () => {
    model.script({ turns: [{ calls: [{ name: 'get_weather', arguments: { city: 5 } }] }, { text: 'sunny' }] });
    const { exitCode, report } = await evalJson(evalFile('schema-args', WEATHER_CASE));
    expect(exitCode).toBe(1);
    const call = (report!.cases[0]!.results as Array<{ turns: Array<{ calls: Array<{ output: string; failed: boolean }> }> }>)[0]!.turns[0]!.calls[0]!;
    expect(call.failed).toBe(true);
    expect(call.output).toMatch(/^Error: .*city/);
    expect(report!.cases[0]!.failures).toEqual(['get_weather was called with city: expected "Paris", got 5']);
  });

  it('a model still calling tools at maxTurns fails with the limit', async () => {
    const calls = { calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] };
    model.script({ turns: [calls, calls, calls, calls] });
    const { exitCode, report } = await evalJson(evalFile('turns', WEATHER_CASE.replace('maxTurns: 3', 'maxTurns: 2')));
    expect(exitCode).toBe(1);
    expect(report!.cases[0]!.failures).toEqual(['no answer within 2 turns (maxTurns): the model was still calling tools']);
    expect((report!.cases[0]!.results as Array<{ turns: unknown[] }>)[0]!.turns).toHaveLength(2);
  });

  it("--as vscode presents VS Code's names: a call by the plain name fails, the host's name runs the real tool", async () => {
    const file = evalFile('as-vscode', WEATHER_CASE);
    model.script({ turns: [{ calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { text: 'sunny' }] });
    const before = model.requests.length;
    const plain = await evalJson(file, ['--as', 'vscode']);
    expect(plain.exitCode).toBe(1);
    expect(plain.report!.cases[0]!.failures).toEqual(['called "get_weather", a tool it was not offered', 'expected a call to get_weather; the model called no tool']);
    const presented = (model.requests[before]!.body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
    expect(presented).toEqual(expect.arrayContaining(['mcp_toolrun_get_weather', 'mcp_toolrun_get_time', 'mcp_toolrun_delete_city']));
    expect(presented).not.toContain('get_weather');
    model.script({ turns: [{ calls: [{ name: 'mcp_toolrun_get_weather', arguments: { city: 'Paris' } }] }, { text: 'sunny' }] });
    const renamed = await evalJson(file, ['--as', 'vscode']);
    expect(renamed.exitCode).toBe(0);
    const call = (renamed.report!.cases[0]!.results as Array<{ turns: Array<{ calls: unknown[] }> }>)[0]!.turns[0]!.calls[0];
    expect(call).toEqual({ called_as: 'mcp_toolrun_get_weather', tool: 'get_weather', args: { city: 'Paris' }, output: 'sunny, 21 C', failed: false });
  });

  it('runs: 3 with 2 passing is 67% [21%–94%]: below the default bar, met at --min-pass-rate 0.6', async () => {
    const file = evalFile('runs', WEATHER_CASE.replace('prompt:', 'runs: 3\n    prompt:'));
    const script = () =>
      model.script({
        runs: [
          [{ calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { text: 'sunny' }],
          [{ calls: [{ name: 'get_time', arguments: { city: 'Paris' } }] }, { text: 'noon' }],
          [{ calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { text: 'sunny' }],
        ],
      });
    script();
    const strict = await evalJson(file);
    expect(strict.exitCode).toBe(1);
    expect(strict.report!.cases[0]).toMatchObject({ passed: 2, runs: 3, met: false, interval: { low: 0.2077, high: 0.9385 } });
    expect(strict.report!.cases[0]!.failures).toEqual(['expected a call to get_weather; the model called get_time (1 of 3 runs)', 'the answer: "noon" does not contain "sunny" (1 of 3 runs)']);
    script();
    const lenient = await evalJson(file, ['--min-pass-rate', '0.6']);
    expect(lenient.exitCode).toBe(0);
  });

  it('writes JUnit and HTML reports with why a case fell short', async () => {
    model.script({ turns: [{ calls: [{ name: 'get_time', arguments: { city: 'Paris' } }] }, { text: 'sunny' }] });
    const junit = join(folder, 'eval.xml');
    const page = join(folder, 'eval.html');
    const { exitCode } = await runInProcess([
      '--config',
      config,
      'eval',
      evalFile('reports', WEATHER_CASE),
      '--model',
      'compatible:scripted',
      '--base-url',
      model.baseUrl,
      '--junit',
      junit,
      '--html',
      page,
    ]);
    expect(exitCode).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="compatible:scripted" package="toolrun.eval"');
    expect(xml).toContain('<failure message="0/1 runs passed: expected a call to get_weather; the model called get_time" type="pass-rate">');
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('get_time({&quot;city&quot;:&quot;Paris&quot;})\n→ 12:00');
    expect(html).toContain('expected a call to get_weather; the model called get_time');
    expect(html).toContain('<p>Prompt: What is the weather in Paris?</p>');
  });
});

describe('toolrun eval refuses before asking any model', () => {
  it('a provider key missing from the environment is exit 2 naming the variable', async () => {
    const { exitCode, stderr } = await runInProcess(['--config', config, 'eval', evalFile('key', WEATHER_CASE), '--model', 'openai:gpt-4.1-mini'], { env: { OPENAI_API_KEY: undefined } });
    expect(exitCode).toBe(2);
    expect(stderr).toContain('✖ --model openai:gpt-4.1-mini needs OPENAI_API_KEY in the environment; set it there (toolrun reads keys only from the environment, never from a flag)');
  });

  it('a bad eval file is exit 3 at its line and column, with the fix', async () => {
    const { exitCode, stderr } = await runInProcess([
      '--config',
      config,
      'eval',
      evalFile('bad', WEATHER_CASE.replace('order', 'x').replace('maxTurns: 3', 'maxTurns: 0')),
      '--model',
      'compatible:x',
      '--base-url',
      model.baseUrl,
    ]);
    expect(exitCode).toBe(3);
    expect(stderr).toContain('bad.eval.yaml:7:17: `maxTurns:` is a whole number of model requests from 1 to 100');
  });

  it('a model endpoint that refuses connections is exit 4', async () => {
    const closed = await startScriptedModel();
    await closed.stop();
    const { exitCode, report } = await evalJson(evalFile('unreachable', WEATHER_CASE), ['--base-url', closed.baseUrl]);
    expect(exitCode).toBe(4);
    expect(String(report!.cases[0]!.failures)).toMatch(/^the model could not be asked: /);
  });

  it('one --model given twice is a usage error', async () => {
    const { exitCode, stderr } = await runInProcess(['--config', config, 'eval', evalFile('twice', WEATHER_CASE), '--model', 'compatible:x', '--model', 'compatible:x', '--base-url', model.baseUrl]);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('✖ --model compatible:x is given twice; name each model once (runs: N in the eval file repeats a case)');
  });

  it('compatible: without --base-url and an unknown --as host are usage errors', async () => {
    const noUrl = await runInProcess(['--config', config, 'eval', evalFile('no-url', WEATHER_CASE), '--model', 'compatible:x']);
    expect(noUrl.exitCode).toBe(2);
    expect(noUrl.stderr).toContain('--model compatible:x needs --base-url URL');
    const host = await runInProcess(['--config', config, 'eval', evalFile('host', WEATHER_CASE), '--model', 'compatible:x', '--base-url', model.baseUrl, '--as', 'notepad']);
    expect(host.exitCode).toBe(2);
    expect(host.stderr).toContain('--as notepad: not a host toolrun presents tools as; use one of vscode, gemini-cli, codex, cursor, windsurf, openai, anthropic, gemini');
  });
});

describe('toolrun eval keeps keys secret', () => {
  it('--api-key-env: the key goes to the endpoint, and an error quoting it is masked in the table, --json and JUnit', async () => {
    const key = 'sk-test-5f1d2c3b4a5968778695a4b3c2d1e0f9';
    const file = evalFile('secret', WEATHER_CASE);
    const junit = join(folder, 'secret.xml');
    const run = (extra: string[]) =>
      runInProcess(['--config', config, 'eval', file, '--model', 'compatible:scripted', '--base-url', model.baseUrl, '--api-key-env', 'SCRIPTED_KEY', ...extra], { env: { SCRIPTED_KEY: key } });
    model.script({ turns: [{ error: 401 }] });
    const before = model.requests.length;
    const table = await run(['--junit', junit]);
    expect(model.requests[before]!.headers.authorization).toBe(`Bearer ${key}`);
    expect(table.exitCode).toBe(1);
    expect(table.stdout).toContain('the model could not be asked: ');
    expect(table.stdout).toContain('refused the key in: Bearer ***');
    model.script({ turns: [{ error: 401 }] });
    const json = await run(['--json']);
    for (const text of [table.stdout, table.stderr, json.stdout, json.stderr, readFileSync(junit, 'utf8')]) expect(text).not.toContain(key.slice(3));
  });

  it('--api-key-env naming an unset variable is exit 2', async () => {
    const { exitCode, stderr } = await runInProcess(
      ['--config', config, 'eval', evalFile('unset', WEATHER_CASE), '--model', 'compatible:x', '--base-url', model.baseUrl, '--api-key-env', 'NO_SUCH_KEY_VAR'],
      {
        env: { NO_SUCH_KEY_VAR: undefined },
      },
    );
    expect(exitCode).toBe(2);
    expect(stderr).toContain('✖ NO_SUCH_KEY_VAR (named by --api-key-env) is not set in the environment; set it, or drop the flag for an endpoint without a key');
  });
});

describe('toolrun eval with cassettes', () => {
  it('CI set: replay is the default, no request reaches the model, and a missing cassette fails the case saying --record', async () => {
    const before = model.requests.length;
    const { exitCode, report } = await runInProcess(['--config', config, 'eval', evalFile('ci', WEATHER_CASE), '--model', 'compatible:scripted', '--base-url', model.baseUrl, '--json'], {
      env: { CI: 'true' },
    }).then((result) => ({ ...result, report: JSON.parse(result.stdout) as { cases: Array<{ failures: string[] }> } }));
    expect(model.requests.length).toBe(before);
    expect(exitCode).toBe(1);
    expect(report.cases[0]!.failures[0]).toMatch(/^the cassettes have no answer for this request: .*toolrun eval --record/);
  });

  it('--replay, --record and --live together are a usage error', async () => {
    const { exitCode, stderr } = await runInProcess(['--config', config, 'eval', evalFile('modes', WEATHER_CASE), '--model', 'compatible:x', '--base-url', model.baseUrl, '--replay', '--record']);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('--replay, --record and --live each choose where model answers come from: give one');
  });
});

describe('toolrun eval over a matrix of models', () => {
  it('each case runs against each --model, reported in --model order, each scored on its own', async () => {
    model.script([
      { model: 'small', turns: [{ calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { text: 'sunny' }] },
      { model: 'large', turns: [{ calls: [{ name: 'get_time', arguments: { city: 'Paris' } }] }, { text: 'noon' }] },
    ]);
    const before = model.requests.length;
    const { exitCode, stdout } = await runInProcess([
      '--config',
      config,
      'eval',
      evalFile('matrix', WEATHER_CASE),
      '--model',
      'compatible:small',
      '--model',
      'compatible:large',
      '--base-url',
      model.baseUrl,
      '--json',
    ]);
    expect(exitCode).toBe(1);
    const report = JSON.parse(stdout) as { cases: Array<{ model: string; met: boolean }> };
    expect(report.cases.map((each) => [each.model, each.met])).toEqual([
      ['compatible:small', true],
      ['compatible:large', false],
    ]);
    expect(
      model.requests
        .slice(before)
        .map((request) => request.body.model)
        .sort(),
    ).toEqual(['large', 'large', 'small', 'small']);
  });
});

describe('toolrun eval --jobs', () => {
  const TWO_CASES = `cases:
  - name: slow one
    prompt: weather, slowly
    expect: { calls: [{ tool: get_weather }], maxTurns: 4 }
  - name: quick one
    prompt: weather, quickly
    expect: { maxTurns: 2 }
`;
  // Each first turn is held until two wait: asked one after another, the run would never end.
  const script = () =>
    model.script([
      { match: 'slowly', together: 2, turns: [{ call: { name: 'get_weather', arguments: { city: 'Paris' } } }, { call: { name: 'get_time', arguments: { city: 'Paris' } } }, { text: 'sunny' }] },
      { match: 'quickly', together: 2, turns: [{ text: 'noon' }] },
    ]);

  it('asks cases side by side, and reports them in file order whichever finished first', { timeout: 30_000 }, async () => {
    script();
    const { exitCode, stdout } = await runInProcess(['--config', config, 'eval', evalFile('jobs', TWO_CASES), '--model', 'compatible:scripted', '--base-url', model.baseUrl, '--jobs', '2']);
    expect(exitCode).toBe(0);
    expect(
      stdout
        .split('\n')
        .filter((line) => line.startsWith('✔'))
        .map((line) => line.split(' · ')[0]),
    ).toEqual(['✔ slow one', '✔ quick one']);
  });

  it('--jobs 0 is exit 2', async () => {
    const { exitCode, stderr } = await runInProcess(['--config', config, 'eval', evalFile('jobs-zero', TWO_CASES), '--model', 'compatible:scripted', '--base-url', model.baseUrl, '--jobs', '0']);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('--jobs');
  });
});
