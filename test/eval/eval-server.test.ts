import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';
import { BIN, ROOT } from '../helpers/run-toolrun.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// toolrun eval with `server:`: the model gets that MCP server's tools and its calls run on the server.

let model: ScriptedModel;
let config: string;
let folder: string;
const pidFile = join(tempDir(), 'pids');

beforeAll(async () => {
  model = await startScriptedModel();
  config = writeTempConfig({
    servers: {
      clean: fixtureServer('conform-clean-server.js'),
      // Appends its pid to PID_FILE as it starts: how many times toolrun started it.
      counted: fixtureServer('pid-file-server.js', { env: { PID_FILE: pidFile } }),
      gone: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
      // A snapshot served by toolrun's own mock: the tools a model is evaluated on need no real backend.
      weather: { command: process.execPath, args: [BIN, 'mcp', 'mock', join(ROOT, 'fixtures/lint/clean.snapshot.json')] },
    },
  });
  folder = tempDir();
});
afterAll(() => model.stop());

const ECHO_CASE = (server: string) => `server: ${server}
cases:
  - name: echoes
    prompt: Say hi through the echo tool
    expect:
      calls: [{ tool: echo, args: { text: hi } }]
      order: exact
      maxTurns: 2
      answer: hi
`;

async function evalJson(file: string, extra: string[] = []) {
  const result = await runInProcess(['--config', config, 'eval', file, '--model', 'compatible:scripted', '--base-url', model.baseUrl, '--json', ...extra]);
  return { ...result, report: result.stdout ? (JSON.parse(result.stdout) as { cases: Array<Record<string, unknown>> }) : undefined };
}

describe('toolrun eval on an MCP server', () => {
  it("runs the model's call on the server and feeds its answer back", async () => {
    const file = join(folder, 'clean.eval.yaml');
    writeFileSync(file, ECHO_CASE('clean'));
    model.script({ turns: [{ calls: [{ name: 'echo', arguments: { text: 'hi' } }] }, { text: 'It said hi.' }] });
    const before = model.requests.length;
    const { exitCode, report, stderr } = await evalJson(file);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    const presented = (model.requests[before]!.body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
    expect(presented).toEqual(['slow.job', 'echo']);
    const turns = (report!.cases[0]!.results as Array<{ turns: Array<{ calls: Array<{ output: string }> }> }>)[0]!.turns;
    expect(turns[0]!.calls[0]!.output).toBe('{"echoed":"hi"}');
  });

  it('--as gemini-cli: the model sees mcp_clean_echo (and slow.job kept as Gemini CLI keeps dots); that name runs echo', async () => {
    const file = join(folder, 'clean-gemini.eval.yaml');
    writeFileSync(file, ECHO_CASE('clean'));
    model.script({ turns: [{ calls: [{ name: 'mcp_clean_echo', arguments: { text: 'hi' } }] }, { text: 'hi' }] });
    const before = model.requests.length;
    const { exitCode, report } = await evalJson(file, ['--as', 'gemini-cli']);
    expect(exitCode).toBe(0);
    expect((model.requests[before]!.body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name)).toEqual(['mcp_clean_slow.job', 'mcp_clean_echo']);
    expect((report!.cases[0]!.results as Array<{ turns: Array<{ calls: unknown[] }> }>)[0]!.turns[0]!.calls[0]).toMatchObject({ called_as: 'mcp_clean_echo', tool: 'echo' });
  });

  it('a `mcp mock` of a snapshot as the server: its tools presented, the call answered by the mock', async () => {
    const file = join(folder, 'mock.eval.yaml');
    writeFileSync(file, 'server: weather\ncases:\n  - name: weather\n    prompt: Weather in Paris?\n    expect: { calls: [{ tool: get_weather, args: { city: Paris } }], maxTurns: 2 }\n');
    model.script({ turns: [{ calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { text: 'Here it is.' }] });
    const before = model.requests.length;
    const { exitCode, report } = await evalJson(file);
    expect(exitCode).toBe(0);
    expect((model.requests[before]!.body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name)).toEqual(['get_weather']);
    const call = (report!.cases[0]!.results as Array<{ turns: Array<{ calls: Array<{ tool: string; failed: boolean }> }> }>)[0]!.turns[0]!.calls[0]!;
    expect(call).toMatchObject({ tool: 'get_weather', failed: false });
  });

  it('a server that does not start is exit 4; one not configured is exit 3 at the file', async () => {
    const gone = join(folder, 'gone.eval.yaml');
    writeFileSync(gone, ECHO_CASE('gone'));
    model.script({ turns: [{ text: 'no tools' }] });
    expect((await evalJson(gone)).exitCode).toBe(4);
    const missing = join(folder, 'missing.eval.yaml');
    writeFileSync(missing, ECHO_CASE('nowhere'));
    const result = await evalJson(missing);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain("missing.eval.yaml: MCP server 'nowhere' is not configured (clean, counted, gone, weather); name one in server:, or run with --server NAME");
  });
});

describe('toolrun eval --jobs with files of one server', () => {
  it('starts the server once, however many files name it side by side', async () => {
    const files = ['one', 'two', 'three'].map((name) => {
      const file = join(folder, `counted-${name}.eval.yaml`);
      writeFileSync(file, `server: counted\ncases:\n  - { name: ${name}, prompt: Say ${name}, expect: { answer: done } }\n`);
      return file;
    });
    model.script({ turns: [{ text: 'done' }] });
    const result = await runInProcess(['--config', config, 'eval', ...files, '--model', 'compatible:scripted', '--base-url', model.baseUrl, '--jobs', '3', '--live']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(readFileSync(pidFile, 'utf8').trim().split('\n')).toHaveLength(1);
  });
});
