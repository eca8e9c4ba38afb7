import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { BIN, ROOT, runToolrun } from '../helpers/run-toolrun.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

/** Issue #35: `toolrun mcp mock`: recordings and snapshots served as real servers, and faults on purpose. */

const marker = newProcessMarker();
afterAll(async () => expect(await waitForNoProcesses(marker.alive)).toEqual([]));

const dir = tempDir();
const FILESYSTEM = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const MEMORY = join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
writeFileSync(join(dir, 'note.txt'), 'hello from the mock test\n');
const config = writeTempConfig({
  mcpServers: {
    everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] },
    filesystem: { command: process.execPath, args: [FILESYSTEM, dir] },
    memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } },
    modern: fixtureServer('v2-server.js', { env: { LEGACY: 'reject' } }),
  },
});
const mock = (...args: string[]) => ['--', process.execPath, BIN, 'mcp', 'mock', ...args];
const run = (args: string[], env: Record<string, string> = {}) => runInProcess(args, { env: { ...marker.env, ...env } });

/** Lines in, lines out: a mock over stdio fed these requests, its stdout split into messages (or text). */
async function converse(args: string[], lines: unknown[]): Promise<string[]> {
  const result = await runToolrun(['mcp', 'mock', ...args], { input: `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`, stdin: undefined, env: marker.env });
  return result.stdout.split('\n').filter(Boolean);
}
const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('a snapshot as a server', () => {
  it("mcp conform passes every check on a mock of server-everything's snapshot, over stdio and HTTP", { timeout: 60_000 }, async () => {
    const snapshot = await run(['--config', config, 'mcp', 'snapshot', 'everything']);
    writeFileSync(join(dir, 'everything.json'), snapshot.stdout);
    const stdio = await run(['mcp', 'conform', '--call-all', ...mock(join(dir, 'everything.json'))]);
    expect(stdio.exitCode, stdio.stdout).toBe(0);
    // cancellation.honoured passes, or skips when every call answers before a cancel could be sent;
    // on a loaded machine an answer can cross conform's cancel on the pipe, which conform warns about:
    // that check alone may warn, nothing may fail.
    expect(stdio.stdout).toMatch(/\n2[23] passed, 0 failed, [01] warnings?, [23] skipped in/);
    expect(
      stdio.stdout
        .split('\n')
        .filter((line) => /^[!✘] /.test(line))
        .every((line) => line.startsWith('! cancellation.honoured')),
    ).toBe(true);
    const child = spawn(process.execPath, [BIN, 'mcp', 'mock', join(dir, 'everything.json'), '--http', '0'], { env: { ...process.env, ...marker.env }, stdio: ['ignore', 'ignore', 'pipe'] });
    const url = await new Promise<string>((resolve) => child.stderr.on('data', (chunk: Buffer) => /on (http:\/\/\S+)/.test(String(chunk)) && resolve(/on (http:\/\/\S+)/.exec(String(chunk))![1]!)));
    const http = await run(['mcp', 'conform', url]);
    child.kill();
    expect(http.exitCode, http.stdout).toBe(0);
    expect(http.stdout).toMatch(/\n19 passed, 0 failed, 0 warnings, 6 skipped in/);
  });

  it('a call is answered with output valid against its outputSchema, or a text naming the call; bad arguments are an isError result', async () => {
    const lines = await converse([join(dir, 'everything.json')], [call(1, 'get-structured-content', { location: 'Chicago' }), call(2, 'echo', { message: 'hi' }), call(3, 'echo', { message: 5 })]);
    const byId = new Map(lines.map((line) => JSON.parse(line)).map((message) => [message.id, message]));
    const [structured, echo, invalid] = [byId.get(1), byId.get(2), byId.get(3)];
    expect(structured.result.structuredContent).toEqual({ temperature: 1, conditions: 'toolrun', humidity: 1 });
    expect(echo.result.content[0].text).toBe('toolrun mock: echo called with {"message":"hi"}');
    expect(invalid.result.isError).toBe(true);
  });

  it('a tool whose schema cannot be compiled fails its call with an error, and the mock goes on answering', async () => {
    const file = join(dir, 'broken-schema.json');
    writeFileSync(
      file,
      JSON.stringify({
        toolrunSnapshot: 1,
        server: { name: 'b' },
        tools: [{ name: 'broken', description: 'x', inputSchema: { type: 'object', properties: { q: { $ref: '#/$defs/missing' } } } }],
        resources: [],
        resourceTemplates: [],
        prompts: [],
      }),
    );
    const lines = (await converse([file], [call(1, 'broken', { q: 1 }), { jsonrpc: '2.0', id: 2, method: 'tools/list' }])).map((line) => JSON.parse(line));
    expect(lines.find((message) => message.id === 1).error.message).toMatch(/^toolrun mock: /);
    expect(lines.find((message) => message.id === 2).result.tools).toHaveLength(1);
  });
});

describe('a recording as a server', () => {
  it('mcp replay against the mock of its own recording shows no difference: server-everything, -filesystem, -memory', { timeout: 60_000 }, async () => {
    const sessions: Array<[string, string[]]> = [
      ['everything', ['--call', 'get-sum', 'a:=2', 'b:=3']],
      ['filesystem', ['--call', 'read_text_file', `path=${join(dir, 'note.txt')}`]],
      ['memory', ['--call', 'read_graph']],
    ];
    for (const [server, calls] of sessions) {
      const recording = join(dir, `${server}.rec`);
      const recorded = await run(['--config', config, 'mcp', 'check-stdout', server, ...calls, '--save', recording]);
      expect(recorded.exitCode, recorded.stderr).toBe(0);
      const replayed = await run(['mcp', 'replay', recording, ...mock(recording)]);
      expect(replayed.exitCode, `${server}: ${replayed.stdout}`).toBe(0);
      expect(replayed.stdout).toMatch(/same: \d+ responses as recorded$/);
    }
  });

  it('a request the recording never saw is a JSON-RPC error naming it, never a hang; --match ordered answers by position', async () => {
    const recording = join(dir, 'everything.rec');
    const [unrecorded] = await converse([recording], [call(1, 'echo', { message: 'never recorded' })]);
    expect(JSON.parse(unrecorded!)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'toolrun mock: the recording has no answer to tools/call with {"arguments":{"message":"never recorded"},"name":"echo"}' },
    });
    const [ordered] = await converse([recording, '--match', 'ordered'], [call(1, 'echo', { message: 'anything' })]);
    expect(JSON.parse(ordered!).result.content[0].text).toBe('The sum of 2 and 3 is 5.');
    const [unknown] = await converse([recording], [{ jsonrpc: '2.0', id: 9, method: 'completion/complete', params: {} }]);
    expect(JSON.parse(unknown!).error.message).toBe('toolrun mock: the recording has no completion/complete request to answer from');
  });

  it('a 2026-07-28 recording answers a 2025 client: initialize made from its server/discover', { timeout: 30_000 }, async () => {
    const recording = join(dir, 'modern.rec');
    expect((await run(['--config', config, 'mcp', 'check-stdout', 'modern', '--call', 'add', 'a:=1', 'b:=2', '--save', recording])).exitCode).toBe(0);
    const [answer] = await converse(
      [recording],
      [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } } }],
    );
    expect(JSON.parse(answer!).result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'v2-fixture' } });
  });
});

describe('faults, the same for the same seed', () => {
  const recording = () => join(dir, 'everything.rec');
  const twenty = Array.from({ length: 20 }, (_, index) => call(index + 1, 'get-sum', { a: 2, b: 3 }));
  const outcomes = async (seed: string) =>
    (await converse([recording(), '--fault', 'error-rate=0.5', '--fault', 'is-error-rate=0.3', '--seed', seed], twenty))
      .map((line) => (line.includes('"error"') ? 'E' : line.includes('"isError":true') ? 'I' : '.'))
      .join('');

  it('error-rate and is-error-rate: one seed, one sequence; another seed, another', async () => {
    const first = await outcomes('7');
    expect(first).toHaveLength(20);
    expect(first).toMatch(/E/);
    expect(first).toMatch(/\./);
    expect(await outcomes('7')).toBe(first);
    expect(await outcomes('8')).not.toBe(first);
  });

  it('hang, exit-mid-call, pollute-stdout, latency and slow-init, as a client meets them', { timeout: 30_000 }, async () => {
    const faulty = (fault: string) => writeTempConfig({ mcpServers: { m: { command: process.execPath, args: [BIN, 'mcp', 'mock', recording(), '--fault', fault] } } });
    const hung = await run(['--config', faulty('hang'), '--timeout', '300', 'exec', 'm:get-sum', 'a=2', 'b=3']);
    expect(hung.exitCode).toBe(1);
    expect(hung.stderr).toMatch(/timed out|300 ms/);
    const died = await run(['--config', faulty('exit-mid-call'), 'exec', 'm:get-sum', 'a=2', 'b=3']);
    expect(died.exitCode).toBe(1);
    expect(died.stderr).toMatch(/exited|closed|went away/);
    const polluted = await run(['--config', faulty('pollute-stdout'), 'mcp', 'check-stdout', 'm', '--call', 'get-sum', 'a:=2', 'b:=3']);
    expect(polluted.exitCode).toBe(1);
    expect(polluted.stdout + polluted.stderr).toContain('toolrun mock: a stray line before the answer');
    const started = performance.now();
    const [slow] = await converse(
      [recording(), '--fault', 'slow-init=300', '--fault', 'latency=50'],
      [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }],
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(350);
    expect(JSON.parse(slow!).result.protocolVersion).toBeDefined();
    const storm = await converse([recording(), '--fault', 'list-changed-storm=4'], [{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(storm).toEqual(Array(4).fill('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}'));
  });

  it('over HTTP: 401 with a Bearer challenge, and a session that expires (404)', { timeout: 30_000 }, async () => {
    const start = async (fault: string) => {
      const child = spawn(process.execPath, [BIN, 'mcp', 'mock', recording(), '--http', '0', '--fault', fault], { env: { ...process.env, ...marker.env }, stdio: ['ignore', 'ignore', 'pipe'] });
      const url = await new Promise<string>((resolve) => child.stderr.on('data', (chunk: Buffer) => /on (http:\/\/\S+)/.test(String(chunk)) && resolve(/on (http:\/\/\S+)/.exec(String(chunk))![1]!)));
      return { child, url };
    };
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const refused = await start('401');
    const answer = await fetch(refused.url, { method: 'POST', headers, body: initialize });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer /);
    refused.child.kill();
    const expiring = await start('session-expired=2');
    const opened = await fetch(expiring.url, { method: 'POST', headers, body: initialize });
    const session = opened.headers.get('mcp-session-id')!;
    const ping = () => fetch(expiring.url, { method: 'POST', headers: { ...headers, 'Mcp-Session-Id': session }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) });
    expect((await ping()).status).toBe(200);
    expect((await ping()).status).toBe(404);
    expiring.child.kill();
  });

  it('bad input: one line, exit 2, nothing served', async () => {
    const cases: Array<[string[], string]> = [
      [['--fault', 'gremlins'], "unknown fault 'gremlins'; faults: latency=MS, error-rate=P"],
      [['--fault', 'error-rate=2'], '--fault error-rate=2: give a probability from 0 to 1'],
      [['--fault', 'latency'], '--fault latency: give milliseconds'],
      [['--fault', '401'], '401 and session-expired are HTTP faults: add --http PORT'],
      [['--http', '0', '--fault', 'pollute-stdout'], 'pollute-stdout and list-changed-storm are stdio faults'],
      [['--match', 'fuzzy'], '--match fuzzy: args or ordered'],
      [['--seed', 'abc'], '--seed abc: a whole number'],
      // Issue 48 item 6: a mock listening beyond loopback answered anyone who could reach the port.
      [['--http', '0.0.0.0:0'], '--http 0.0.0.0:0 listens beyond this machine: guard it with a bearer token (--token-env)'],
      [['--token-env', 'MOCK_TOKEN'], 'a bearer token guards the HTTP endpoint only: add --http PORT, or drop --token-env'],
      [['--http', '0', '--token-env', 'TOOLRUN_TEST_NEVER_SET_TOKEN'], 'TOOLRUN_TEST_NEVER_SET_TOKEN is not set (or empty)'],
    ];
    for (const [flags, message] of cases) {
      const result = await run(['mcp', 'mock', recording(), ...flags], { MOCK_TOKEN: 's3cret' });
      expect(result.exitCode, flags.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr.split('\n')).toHaveLength(1);
    }
    const missing = await run(['mcp', 'mock', join(dir, 'nope.rec')]);
    expect(missing.stderr).toContain('no such file; give a recording (tap --record, check-stdout --save), a snapshot (mcp snapshot) or a config with mock tools');
    writeFileSync(join(dir, 'plain.json'), '{"hello": 1}');
    expect((await run(['mcp', 'mock', join(dir, 'plain.json')])).stderr).toContain('not a recording, a snapshot, a tools/list result, or a config with mock tools');
    expect(readFileSync(recording(), 'utf8').length).toBeGreaterThan(0);
  });
});

// Issue 48 item 6: `mcp mock --http` had no token, no session cap and no expiry: left listening, a
// flood of sessions grew it without end, and beyond loopback anyone could use it.
describe("mcp mock --http keeps serve's rules", () => {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
  const tools = join(dir, 'one-tool.json');
  writeFileSync(tools, JSON.stringify({ tools: [{ name: 'noop', inputSchema: { type: 'object' } }] }));
  const start = async (args: string[], env: Record<string, string> = {}) => {
    const child = spawn(process.execPath, [BIN, 'mcp', 'mock', tools, ...args], { env: { ...process.env, ...marker.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk;
        const match = /on (http:\/\/\S+)/.exec(stderr);
        if (match) resolve(match[1]!);
      });
      child.once('exit', () => reject(new Error(stderr)));
    });
    const post = async (body: string, session?: string, extra: Record<string, string> = {}) => {
      const response = await fetch(url, { method: 'POST', headers: { ...headers, ...extra, ...(session ? { 'mcp-session-id': session } : {}) }, body });
      await response.text();
      return { status: response.status, session: response.headers.get('mcp-session-id') ?? undefined };
    };
    return { child, post, stderr: () => stderr };
  };

  it('beyond loopback with --token-env: a request without the bearer is 401, with it served', { timeout: 30_000 }, async () => {
    const { child, post } = await start(['--http', '0.0.0.0:0', '--token-env', 'MOCK_TOKEN'], { MOCK_TOKEN: 's3cret' });
    try {
      expect((await post(initialize)).status).toBe(401);
      expect((await post(initialize, undefined, { Authorization: 'Bearer s3cret' })).status).toBe(200);
    } finally {
      child.kill();
    }
  });

  it('1,000 idle sessions: the least recently used makes room for the next client, said on stderr', { timeout: 60_000 }, async () => {
    const { child, post, stderr } = await start(['--http', '0']);
    try {
      const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const sessions: string[] = [];
      for (let index = 0; index < 1000; index++) {
        const { session } = await post(initialize);
        await post(initialized, session);
        sessions.push(session!);
      }
      const next = await post(initialize);
      expect(next.status).toBe(200);
      expect(stderr()).toContain(`toolrun mock: ended session ${sessions[0]}, idle the longest, to make room for a new client (1000 at most)`);
      const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
      expect((await post(ping, sessions[0])).status).toBe(404);
      expect((await post(ping, sessions[1])).status).toBe(200);
    } finally {
      child.kill();
    }
  });

  it('a client that never finishes its handshake has its session ended after 5 s, said on stderr', { timeout: 30_000 }, async () => {
    const { child, post, stderr } = await start(['--http', '0']);
    try {
      const { session } = await post(initialize);
      for (let waited = 0; !stderr().includes('did not finish') && waited < 20_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stderr()).toContain(`toolrun mock: ended session ${session}: its client did not finish the handshake within 5 s`);
      expect((await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }), session)).status).toBe(404);
    } finally {
      child.kill();
    }
  });
});

// Issue 48: a source nested 200,000 deep was served, and every call (or the tools/list) ran out of stack
// while being answered, or ended the mock. It is refused the way a config is (MAX_CONFIG_DEPTH).
it('a source nested 200,000 deep is exit 2 naming the depth: config, snapshot, recording', async () => {
  const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
  const sources: Array<[string, string, string]> = [
    ['deep-config.json', `{"tools":[{"name":"t","implementation":{"type":"mock","mock_response":${deep}}}]}`, 'deep-config.json'],
    ['deep-snapshot.json', `{"tools":[{"name":"t","inputSchema":{"type":"object","default":${deep}}}]}`, 'deep-snapshot.json'],
    [
      'deep.rec',
      [
        JSON.stringify({ toolrun_recording: 1, server: 'deep', command: 'deep', started: '2026-12-02T00:00:00.000Z' }),
        JSON.stringify({ t: 0, dir: 'send', text: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }),
        JSON.stringify({ t: 1, dir: 'recv', text: `{"jsonrpc":"2.0","id":1,"result":{"tools":${deep}}}` }),
        '',
      ].join('\n'),
      'deep.rec: a recorded message',
    ],
  ];
  for (const [file, text, label] of sources) {
    writeFileSync(join(dir, file), text);
    const result = await run(['mcp', 'mock', join(dir, file)]);
    expect(result.exitCode, file).toBe(2);
    expect(result.stderr).toBe(`✖ ${join(dir, label)}: nested deeper than 100 levels; a recording, snapshot or config is never that deep`);
    expect(result.stdout).toBe('');
  }
});

describe('a client connects to any mock (issue 47, item 11)', () => {
  /** server-everything recorded by toolrun, whose client sends tools/list with no params. */
  const recorded = async () => {
    const recording = join(dir, 'connect.rec');
    const result = await run(['--config', config, 'mcp', 'check-stdout', 'everything', '--call', 'get-sum', 'a:=2', 'b:=3', '--save', recording]);
    expect(result.exitCode, result.stderr).toBe(0);
    return recording;
  };
  const mockServer = (source: string, ...flags: string[]) => writeTempConfig({ mcpServers: { m: { command: process.execPath, args: [BIN, 'mcp', 'mock', source, ...flags] } } });

  it('absent, null and {} params are the same request: a recording whose tools/list had params {} answers a client that sends none, and back', async () => {
    const recording = await recorded();
    const lines = readFileSync(recording, 'utf8').split('\n');
    const listing = lines.findIndex((line) => line.includes('\\"method\\":\\"tools/list\\"'));
    expect(listing, 'the recording has its tools/list').toBeGreaterThan(0);
    // The same session as a client that sends `"params": {}` (as other clients do) recorded it.
    const entry = JSON.parse(lines[listing]!) as { text: string };
    entry.text = JSON.stringify({ ...(JSON.parse(entry.text) as object), params: {} });
    lines[listing] = JSON.stringify(entry);
    const withEmpty = join(dir, 'connect-empty-params.rec');
    writeFileSync(withEmpty, lines.join('\n'));
    const called = await run(['--config', mockServer(withEmpty), 'exec', 'm:get-sum', 'a=2', 'b=3']);
    expect(called.exitCode, called.stderr).toBe(0);
    expect(called.stderr).toMatch(/^✔ get-sum · mcp:m · [\d.]+ ms\n?$/);
    expect(called.stdout).toContain('The sum of 2 and 3 is 5.');
    // The other way: a recording without params answers {}, null and a params that holds only _meta.
    const asked = [{}, null, { _meta: { progressToken: 7 } }].map((params, index) => ({ jsonrpc: '2.0', id: index + 1, method: 'tools/list', params }));
    const answers = (await converse([recording], asked)).map((line) => JSON.parse(line) as { id: number; result?: { tools: unknown[] }; error?: unknown });
    expect(answers.map((answer) => [answer.id, answer.error, (answer.result?.tools.length ?? 0) > 0])).toEqual([
      [1, undefined, true],
      [2, undefined, true],
      [3, undefined, true],
    ]);
  });

  it('error-rate falls on calls, reads and prompt gets, never on the handshake or its lists: a seeded mock lets a client connect', { timeout: 30_000 }, async () => {
    const recording = await recorded();
    const faulted = await run(['--config', mockServer(recording, '--fault', 'error-rate=1', '--seed', '1'), 'exec', 'm:get-sum', 'a=2', 'b=3']);
    expect(faulted.stderr).toContain('toolrun mock fault: an injected error (--fault error-rate)');
    expect(faulted.stderr).not.toContain('could not be connected');
    expect(faulted.exitCode).toBe(1);
    const snapshot = join(dir, 'faulted.json');
    writeFileSync(
      snapshot,
      JSON.stringify({
        toolrunSnapshot: 1,
        server: { name: 'f' },
        tools: [{ name: 'go', description: 'x', inputSchema: { type: 'object', properties: {} } }],
        resources: [{ uri: 'mem://a', name: 'a' }],
        resourceTemplates: [{ uriTemplate: 'mem://{id}', name: 'by id' }],
        prompts: [{ name: 'p', description: 'x' }],
      }),
    );
    const requests = ['initialize', 'tools/list', 'resources/list', 'resources/templates/list', 'prompts/list', 'ping', 'tools/call', 'resources/read', 'prompts/get'];
    const params: Record<string, unknown> = {
      initialize: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      'tools/call': { name: 'go', arguments: {} },
      'resources/read': { uri: 'mem://a' },
      'prompts/get': { name: 'p' },
    };
    const answers = (
      await converse(
        [snapshot, '--fault', 'error-rate=1', '--seed', '3'],
        requests.map((method, index) => ({ jsonrpc: '2.0', id: index + 1, method, params: params[method] ?? {} })),
      )
    ).map((line) => JSON.parse(line) as { id: number; error?: { code: number } });
    expect(answers.map((answer) => `${requests[answer.id - 1]} ${answer.error ? answer.error.code : 'answered'}`).sort()).toEqual(
      [
        'initialize answered',
        'tools/list answered',
        'resources/list answered',
        'resources/templates/list answered',
        'prompts/list answered',
        'ping answered',
        'tools/call -32603',
        'resources/read -32603',
        'prompts/get -32603',
      ].sort(),
    );
  });
});
