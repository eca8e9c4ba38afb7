import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { echoServer, fixtureHome } from '../helpers/host-fixtures.js';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { BIN, runToolrun, testCacheHome } from '../helpers/run-toolrun.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

/** Issue #35: `toolrun serve`, used by real clients: the SDK's (v1 and v2), toolrun's own conform, a host-style entry. */

const marker = newProcessMarker();
afterAll(async () => expect(await waitForNoProcesses(marker.alive)).toEqual([]));

const dir = tempDir();
const api = join(dir, 'api.json');
const config = writeTempConfig({
  mcpServers: {
    everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'], env: { API_TOKEN: 'sk-upstream-secret-0123456789' } },
    // A mock that dies during its second call: serve must name it, then start it again; each answered
    // call is followed by three tools/list_changed, which serve passes on to its client.
    flaky: { command: process.execPath, args: [BIN, 'mcp', 'mock', api, '--fault', 'exit-mid-call=2', '--fault', 'list-changed-storm=3', '--fault', 'slow-init=400'] },
    remote: { url: 'http://user:hunter2hunter2@127.0.0.1:9/mcp' },
  },
});
writeFileSync(
  api,
  JSON.stringify({
    toolrunSnapshot: 1,
    server: { name: 'mock' },
    tools: [{ name: 'ping_it', description: 'Answers.', inputSchema: { type: 'object', properties: {} } }],
    resources: [],
    resourceTemplates: [],
    prompts: [],
  }),
);
/** The flaky mocks running now (their command line names `api`). */
function flakyMocks(): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(api)) count += 1;
    } catch {
      // Gone while we looked.
    }
  }
  return count;
}
const env = { ...process.env, ...marker.env, XDG_CACHE_HOME: testCacheHome(), NO_COLOR: '1' } as Record<string, string>;

/** The URL `serve --http` (or a mock) prints on stderr once it listens; what it said, if it exits first. */
function servedUrl(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk;
      const match = /on (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error(text)));
  });
}

/** Clients opened by a test: closed after it, passed or failed, so no serve (and no upstream) outlives it. */
const open = new Set<{ close(): Promise<void> }>();
afterEach(async () => {
  await Promise.all([...open].map((client) => client.close().catch(() => {})));
  open.clear();
});

async function stdioClient(args: string[], capabilities: Record<string, unknown> = {}) {
  const client = new Client({ name: 'sdk-test', version: '1.0.0' }, { capabilities });
  open.add(client);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--config', config, 'serve', ...args], env, stderr: 'ignore' }));
  return client;
}

describe('toolrun serve over stdio', () => {
  it('an SDK client lists and calls math_eval and a server tool; --tools and --deny hide and refuse; prompts and resources carry the prefix', { timeout: 30_000 }, async () => {
    const client = await stdioClient(['everything', '--tools', 'everything__*', 'math_eval', '--deny', 'everything__get-env']);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('math_eval');
    expect(names).toContain('everything__get-sum');
    expect(names).not.toContain('everything__get-env');
    // Only what --tools names: the other local tools are not served.
    expect(names).not.toContain('get_current_datetime');
    await expect(client.callTool({ name: 'get_current_datetime', arguments: {} })).rejects.toThrow('Unknown tool: get_current_datetime');
    expect(names.every((name) => !name.startsWith('flaky__'))).toBe(true);
    expect(await client.callTool({ name: 'math_eval', arguments: { expression: '6*7' } })).toEqual({ content: [{ type: 'text', text: '{"result":42}' }], structuredContent: { result: 42 } });
    expect(await client.callTool({ name: 'everything__get-sum', arguments: { a: 2, b: 3 } })).toEqual({ content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }] });
    await expect(client.callTool({ name: 'everything__get-env', arguments: {} })).rejects.toThrow('MCP error -32602: Unknown tool: everything__get-env');
    const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(prompts).toContain('everything__simple-prompt');
    expect((await client.getPrompt({ name: 'everything__simple-prompt' })).messages.length).toBeGreaterThan(0);
    const resources = (await client.listResources()).resources;
    expect(resources.every((resource) => resource.name.startsWith('everything__'))).toBe(true);
    const read = await client.readResource({ uri: resources[0]!.uri });
    expect(read.contents[0]!.uri).toBe(resources[0]!.uri);
    // -32602 "Resource not found" (2026-07-28's code; the SDK's server uses it in the 2025 era too, where -32002 is a SHOULD).
    await expect(client.readResource({ uri: 'nowhere://nothing' })).rejects.toThrow('MCP error -32602: Resource not found: nowhere://nothing');
    await client.close();
  });

  it('progress and elicitation are relayed between the client and the upstream', { timeout: 30_000 }, async () => {
    const client = await stdioClient(['everything'], { elicitation: {} });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { color: 'red', number: 7, pets: 'cats' } }));
    const progress: number[] = [];
    await client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: (update) => progress.push(update.progress) });
    // The last update and the result can arrive together, and the SDK's client handles notifications a
    // microtask after responses: it may drop that last one (upstream in toolrun, or here). The first two never are.
    expect(progress.slice(0, 2)).toEqual([1, 2]);
    const elicited = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} });
    expect(JSON.stringify(elicited)).toContain('red');
    await client.close();
  });

  it("an upstream that dies mid-call: the client's error names it, the next call starts it again; list changes reach the client", { timeout: 30_000 }, async () => {
    // flaky starts slowly (slow-init): the first call comes before it is connected, and must wait for that start, not start a second copy.
    const client = await stdioClient(['flaky']);
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changes++);
    expect(await client.callTool({ name: 'flaky__ping_it', arguments: {} })).toMatchObject({ content: [{ type: 'text' }] });
    expect(flakyMocks()).toBe(1);
    await expect(client.callTool({ name: 'flaky__ping_it', arguments: {} })).rejects.toThrow(/MCP server 'flaky' went away during the call/);
    expect(await client.callTool({ name: 'flaky__ping_it', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'toolrun mock: ping_it called with {}' }] });
    await expect.poll(() => changes, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    await client.close();
  });

  it("an upstream's credentials never reach the client: its URL's password, and its token where it quotes it (log, error, stderr), are masked", { timeout: 30_000 }, async () => {
    const client = await stdioClient(['remote']);
    const error = await client.getPrompt({ name: 'remote__anything' }).catch((caught: Error) => caught);
    expect(String(error)).toMatch(/MCP server 'remote' is unavailable/);
    expect(String(error)).not.toContain('hunter2');
    await client.close();
    // An upstream that repeats its own token (from its env) in a log, an error, and on stderr as it dies:
    // each reaches the client (so the check sees them), the token masked in each.
    const token = 'service-credential-5e1f09a7c3';
    const leakyConfig = writeTempConfig({ mcpServers: { leaky: fixtureServer('credential-echo-server.js', { env: { SERVICE_TOKEN: token } }) } });
    const leaky = new Client({ name: 'sdk-test', version: '1.0.0' });
    open.add(leaky);
    const logs: string[] = [];
    leaky.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => void logs.push(JSON.stringify(notification.params)));
    await leaky.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--config', leakyConfig, 'serve', 'leaky'], env, stderr: 'ignore' }));
    const refused = String(await leaky.callTool({ name: 'leaky__refuse', arguments: {} }).catch((caught: Error) => caught));
    expect(refused).toContain('the service refused token ***');
    const crashed = String(await leaky.callTool({ name: 'leaky__crash', arguments: {} }).catch((caught: Error) => caught));
    expect(crashed).toMatch(/MCP server 'leaky' went away during the call .*its stderr ended with: .*fatal: the service rejected token \*\*\*/);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs[0]).toContain('calling the service with token ***');
    expect([refused, crashed, ...logs].filter((text) => text.includes(token))).toEqual([]);
  });

  it('mcp conform passes every check on toolrun serve', { timeout: 60_000 }, async () => {
    // The era pinned: under load, an auto-negotiating probe can give up and judge the 2025 family instead
    // (where the SDK's -32602 for an unknown resource is a warning); the v2 client test covers negotiation.
    const result = await runInProcess(['--protocol', '2026-07-28', 'mcp', 'conform', '--', process.execPath, BIN, '--config', config, 'serve', 'everything'], { env: marker.env });
    expect(result.exitCode, result.stdout).toBe(0);
    // In 2026-07-28, which toolrun's client opens with: the handshake and ping checks do not apply (skipped).
    expect(result.stdout).toMatch(/^toolrun mcp conform toolrun \(stdio, 2026-07-28, profile toolrun@2\)/);
    expect(result.stdout).toMatch(/\n\d+ passed, 0 failed, 0 warnings, \d+ skipped in/);
  });

  it("a host-style entry: Cursor's config with toolrun serve as its one server, used through --host", { timeout: 30_000 }, async () => {
    const f = fixtureHome();
    f.write(
      join(f.home, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { toolrun: { command: process.execPath, args: [BIN, '--config', config, 'serve', 'everything'] }, plain: echoServer() } }),
    );
    const result = await runInProcess(['--host', 'cursor', 'exec', 'toolrun:everything__echo', 'message=through serve'], { env: { ...f.env, ...marker.env }, cwd: f.project });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'Echo: through serve' });
  });

  it('a client that sends garbage gets a bounded report on stderr, and is served after it', { timeout: 30_000 }, async () => {
    const garbage = Array.from({ length: 50 }, (_, index) => `not json ${index}`).join('\n');
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const result = await runToolrun(['--config', config, 'serve', 'everything'], { input: `${garbage}\n${initialize}\n`, stdin: undefined, env: marker.env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout.split('\n')[0]!).result.serverInfo.name).toBe('toolrun');
    expect(result.stderr.split('\n').filter((line) => line.includes('toolrun serve:')).length).toBe(3);
  });

  it('the v2 SDK client is served in 2026-07-28', { timeout: 30_000 }, async () => {
    const { Client: V2Client } = await import('@modelcontextprotocol/client');
    const { StdioClientTransport: V2Stdio } = await import('@modelcontextprotocol/client/stdio');
    const client = new V2Client({ name: 'v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    open.add(client);
    await client.connect(new V2Stdio({ command: process.execPath, args: [BIN, '--config', config, 'serve', 'everything'], env, stderr: 'ignore' }));
    // Served in 2026-07-28 (server/discover), while the v1 clients above are served in the 2025 family.
    expect(client.getProtocolEra()).toBe('modern');
    expect(await client.callTool({ name: 'everything__echo', arguments: { message: 'v2' } })).toMatchObject({ content: [{ type: 'text', text: 'Echo: v2' }] });
    expect(await client.callTool({ name: 'math_eval', arguments: { expression: '2^5' } })).toMatchObject({ structuredContent: { result: 32 } });
    await client.close();
  });
});

describe('toolrun serve over HTTP', () => {
  it('the bearer guards every request (401), the Origin must be loopback (403), and an SDK client with the token is served', { timeout: 30_000 }, async () => {
    const child = spawn(process.execPath, [BIN, '--config', config, 'serve', 'everything', '--http', '0', '--token-env', 'SERVE_TOKEN'], {
      env: { ...env, SERVE_TOKEN: 'tok-0123456789' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const url = await servedUrl(child);
    try {
      const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
      const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
      expect((await fetch(url, { method: 'POST', headers, body: initialize })).status).toBe(401);
      expect((await fetch(url, { method: 'POST', headers: { ...headers, Authorization: 'Bearer wrong-token-00' }, body: initialize })).status).toBe(401);
      expect((await fetch(url, { method: 'POST', headers: { ...headers, Authorization: 'Bearer tok-0123456789', Origin: 'https://evil.example' }, body: initialize })).status).toBe(403);
      const client = new Client({ name: 'http-test', version: '1.0.0' });
      open.add(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer tok-0123456789' } } }));
      expect(await client.callTool({ name: 'math_eval', arguments: { expression: '2+2' } })).toMatchObject({ structuredContent: { result: 4 } });
      expect(await client.callTool({ name: 'everything__echo', arguments: { message: 'http' } })).toMatchObject({ content: [{ text: 'Echo: http' }] });
      // serve's own bearer never reaches an upstream's environment, and the config's secrets never reach the client (issue 48 item 3).
      const upstreamEnv = JSON.stringify(await client.callTool({ name: 'everything__get-env', arguments: {} }));
      expect(upstreamEnv).toContain('API_TOKEN');
      expect(upstreamEnv).not.toContain('SERVE_TOKEN');
      expect(upstreamEnv).not.toContain('tok-0123456789');
      expect(upstreamEnv).not.toContain('sk-upstream-secret-0123456789');
      await client.close();
    } finally {
      child.kill('SIGTERM');
      expect(await new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)))).toBe(143);
    }
  });

  it('bad usage: one line, exit 2', async () => {
    const cases: Array<[string[], Record<string, string>, string]> = [
      [['--token-env', 'NOPE_UNSET', '--http', '0'], {}, 'NOPE_UNSET is not set (or empty): set it to the bearer token clients must send'],
      [['--token-env', 'X'], { X: 'y' }, 'a bearer token guards the HTTP endpoint only: add --http PORT, or drop --token-env'],
      [['--http', '0.0.0.0:0'], {}, 'listens beyond this machine: guard it with a bearer token (--token-env)'],
      [['--http', 'port'], {}, '--http port: give a port, or HOST:PORT'],
      [['nosuch'], {}, "'nosuch'"],
    ];
    for (const [args, extra, message] of cases) {
      const result = await runInProcess(['--config', config, 'serve', ...args], { env: extra });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
  });
});

describe('served names cannot be forged (issue 48 item 7)', () => {
  it("--deny matches a name with a line break: an upstream's 'nl\\ntouch …' is hidden by --deny 'h__nl*'", { timeout: 30_000 }, async () => {
    const hostile = writeTempConfig({ mcpServers: { h: fixtureServer('hostile-names-server.js') } });
    const client = new Client({ name: 'sdk-test', version: '1.0.0' });
    open.add(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--config', hostile, 'serve', 'h', '--deny', 'h__nl*'], env, stderr: 'ignore' }));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('h__plain_tool');
    expect(names.filter((name) => name.startsWith('h__nl'))).toEqual([]);
  });

  it('a server whose name holds the separator is refused before anything starts, with a separator that works', async () => {
    const clashing = writeTempConfig({ mcpServers: { h: echoServer(), h__x: echoServer() } });
    const refused = await runInProcess(['--config', clashing, 'serve']);
    expect(refused).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        "✖ server name 'h__x' holds the separator '__', so its tools and another server's could be served under the same name: give a --separator no server name holds (e.g. --separator --), or rename the server",
    });
  });
});

describe('a resource URI two upstreams list (issue 48 item 7)', () => {
  it('is served once per server as toolrun-upstream:SERVER/URI, said on stderr; a read of the bare URI names both, never picks one', { timeout: 30_000 }, async () => {
    const twins = writeTempConfig({ mcpServers: { a: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] }, b: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } });
    const client = new Client({ name: 'sdk-test', version: '1.0.0' });
    open.add(client);
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--config', twins, 'serve'], env, stderr: 'pipe' });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
    const { resources } = await client.listResources();
    const served = resources.filter((resource) => resource.uri.startsWith('toolrun-upstream:'));
    expect(served.length).toBeGreaterThan(0);
    const fromB = served.find((resource) => resource.uri.startsWith('toolrun-upstream:b/'))!;
    const bare = fromB.uri.slice('toolrun-upstream:b/'.length);
    expect(served.map((resource) => resource.uri)).toContain(`toolrun-upstream:a/${bare}`);
    expect(resources.map((resource) => resource.uri)).not.toContain(bare);
    expect(stderr).toContain(`resource URI ${JSON.stringify(bare)} is listed by a and b: served as toolrun-upstream:a/${bare} and toolrun-upstream:b/${bare}`);
    const read = await client.readResource({ uri: fromB.uri });
    expect(read.contents[0]!.uri).toBe(fromB.uri);
    await expect(client.readResource({ uri: bare })).rejects.toThrow(`Resource URI ${bare} is listed by a and b: read toolrun-upstream:a/${bare} or toolrun-upstream:b/${bare}`);
  });
});

describe('serve keeps its clients apart (issue 48 item 2)', () => {
  it("an upstream's question during calls of two clients reaches neither, never the other client; alone, a client gets its own", { timeout: 60_000 }, async () => {
    const log = join(tempDir(), 'asked.log');
    writeFileSync(log, '');
    const asking = writeTempConfig({ mcpServers: { ask: { ...fixtureServer('elicit-server.js'), env: { CALLS_LOG: log } } } });
    const child = spawn(process.execPath, [BIN, '--config', asking, 'serve', 'ask', '--http', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const url = await servedUrl(child);
      const connect = async (name: string, answer: (message: string) => Promise<Record<string, unknown>>) => {
        const client = new Client({ name, version: '1.0.0' }, { capabilities: { elicitation: {} } });
        open.add(client);
        client.setRequestHandler(ElicitRequestSchema, async (request) => answer(request.params.message) as never);
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        return client;
      };
      const askedOf = (text: string) => readFileSync(log, 'utf8').includes(text);
      const bSaw: string[] = [];
      // B answers slowly: were a question of A's routed to B, B's call would still be in flight when it came.
      const b = await connect('b', async (message) => {
        bSaw.push(message);
        await new Promise((resolve) => setTimeout(resolve, 2000));
        return { action: 'decline' };
      });
      let bCall: Promise<unknown> | undefined;
      const aSaw: string[] = [];
      const a = await connect('a', async (message) => {
        aSaw.push(message);
        if (message !== 'Who are you?') return { action: 'accept', content: { confirm: true } };
        if (bCall === undefined) {
          // While A's first call waits on its first answer, B calls the same upstream, which asks B's question too.
          bCall = b.callTool({ name: 'ask__signup', arguments: {} });
          for (let waited = 0; !askedOf('Sign up for the newsletter') && waited < 10_000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
        }
        return { action: 'accept', content: { name: 'Ada' } };
      });
      await a.callTool({ name: 'ask__two_rounds', arguments: {} });
      await bCall;
      // B's own question came while A's call was in flight on the same server: nobody's, declined. A's second round never reached B.
      expect(bSaw).toEqual([]);
      expect(aSaw[0]).toBe('Who are you?');
      // Alone on the server, a client is asked its own questions, every round.
      aSaw.length = 0;
      const alone = await a.callTool({ name: 'ask__two_rounds', arguments: {} });
      expect(aSaw).toEqual(['Who are you?', 'Really go on?']);
      expect(JSON.stringify(alone)).toContain('Ada');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});

// Issue 48: a client that sends calls and stops reading its stdout made serve hold every answer in
// memory, without end. Past 64 MB queued the session is closed, said on stderr, and serve ends.
it('a stdio client that stops reading: serve closes the session past 64 MB queued, says so on stderr, and exits', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdout.pause(); // never read: the pipe fills, then toolrun's own queue
  child.stdin.on('error', () => {}); // the calls not yet taken when serve ends
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'no-reader', version: '1' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const message = 'x'.repeat(1 << 20);
  for (let id = 1; id <= 80; id++) send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { message } } });
  expect(await exited).toBe(0);
  expect(stderr).toContain('⚠ toolrun serve: the client has not read 64 MB of answers; the session is closed and what was queued is dropped\n');
});

// Issue 48 item 4: under serve --http, a client that holds its event stream open and never reads it
// made serve keep everything sent to it (here an upstream's logs) in memory, without end. Past 64 MB
// waiting for that session, the session is ended and said on stderr; serve and other sessions go on.
it('serve --http: a client that stops reading its event stream has its session ended past 64 MB queued; another session goes on', { timeout: 60_000 }, async () => {
  const floodConfig = writeTempConfig({ mcpServers: { chatty: fixtureServer('log-flood-server.js') } });
  const child = spawn(process.execPath, [BIN, '--config', floodConfig, 'serve', '--http', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await servedUrl(child);
  const socket = new Socket();
  try {
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const post = async (body: unknown, session?: string) => {
      const response = await fetch(url, { method: 'POST', headers: { ...headers, ...(session ? { 'mcp-session-id': session } : {}) }, body: JSON.stringify(body) });
      return { status: response.status, text: await response.text(), session: response.headers.get('mcp-session-id') ?? undefined };
    };
    const { session } = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'no-reader', version: '1' } } });
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    // The session's standalone event stream: its headers are read, then nothing more.
    const { port } = new URL(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.connect(Number(port), '127.0.0.1', () => socket.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nmcp-session-id: ${session}\r\n\r\n`));
      socket.once('data', (chunk: Buffer) => {
        expect(chunk.toString()).toMatch(/^HTTP\/1\.1 200/);
        socket.pause();
        resolve();
      });
    });
    // 100 logs of 1 MB, relayed to that stream.
    const flood = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'chatty__flood', arguments: { count: 100, size: 1 << 20 } } }, session);
    expect(flood.status).toBe(200);
    for (let waited = 0; !stderr.includes('has not read') && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stderr).toContain(`toolrun serve: ended session ${session}: its client has not read 64 MB of what was sent to it; what was queued is dropped\n`);
    expect((await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, session)).status).toBe(404);
    const other = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'reader', version: '1' } } });
    expect(other.status).toBe(200);
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, other.session);
    expect((await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, other.session)).status).toBe(200);
  } finally {
    socket.destroy();
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
  }
});

// Issue 48: under serve --http, one session's math_eval of `x=1:1e9` aborted the process (V8's fatal
// out-of-memory), ending the gateway and every other session. Now it is that call's error result.
it('serve --http: a huge range in one session is its tool error; another session goes on', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, [BIN, 'serve', '--http', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const url = await servedUrl(child);
  try {
    const [hostile, bystander] = [new Client({ name: 'hostile', version: '1' }), new Client({ name: 'bystander', version: '1' })];
    for (const client of [hostile, bystander]) {
      open.add(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    }
    expect(await hostile.callTool({ name: 'math_eval', arguments: { expression: 'x=1:1e9' } })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('range would build 1,000,000,000 elements: too large for math_eval (the limit is 10,000,000)') }],
    });
    expect(await bystander.callTool({ name: 'math_eval', arguments: { expression: '2+2' } })).toMatchObject({ structuredContent: { result: 4 } });
    await Promise.all([hostile.close(), bystander.close()]);
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
  }
});

describe("issue 48 item 8: an upstream's own -32000 error", () => {
  it('is relayed as its error (code and message), not as "went away during the call"; the upstream keeps serving', { timeout: 30_000 }, async () => {
    const upstreamConfig = writeTempConfig({ mcpServers: { busy: fixtureServer('workflow-commands-server.js') } });
    const client = new Client({ name: 'sdk-test', version: '1.0.0' });
    open.add(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--config', upstreamConfig, 'serve', 'busy'], env, stderr: 'ignore' }));
    // The server answers {"code":-32000,"message":"refused…"}: JSON-RPC's range for a server's own errors.
    const error = (await client.callTool({ name: 'busy__throw', arguments: {} }).catch((caught: unknown) => caught)) as { code?: number; message?: string };
    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/^MCP error -32000: refused/);
    expect(error.message).not.toContain('went away');
    expect(await client.callTool({ name: 'busy__say', arguments: {} })).toMatchObject({ content: [{ type: 'text' }] });
  });
});

describe('issue 48 item 8: an upstream whose entry has an unset ${VAR}', () => {
  it('serve (all servers) warns and serves the others; naming it is a config error, exit 3', { timeout: 30_000 }, async () => {
    const unsetConfig = writeTempConfig({
      mcpServers: {
        good: fixtureServer('workflow-commands-server.js'),
        bad: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${TOOLRUN_TEST_NEVER_SET_TOKEN}' } },
      },
    });
    const client = new Client({ name: 'sdk-test', version: '1.0.0' });
    open.add(client);
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--config', unsetConfig, 'serve'], env, stderr: 'pipe' });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('good__say');
    expect(names.filter((name) => name.startsWith('bad__'))).toEqual([]);
    expect(await client.callTool({ name: 'good__say', arguments: {} })).toMatchObject({ content: [{ type: 'text' }] });
    await expect
      .poll(() => stderr)
      .toContain(
        `⚠ not serving bad: ${unsetConfig}: mcpServers.bad.headers.Authorization: environment variable TOOLRUN_TEST_NEVER_SET_TOKEN is not set. Export it (export TOOLRUN_TEST_NEVER_SET_TOKEN=...) or give a default: \${TOOLRUN_TEST_NEVER_SET_TOKEN:-value}.`,
      );
    const named = await runInProcess(['--config', unsetConfig, 'serve', 'bad']);
    expect(named).toEqual({
      exitCode: 3,
      stdout: '',
      stderr: `✖ ${unsetConfig}: mcpServers.bad.headers.Authorization: environment variable TOOLRUN_TEST_NEVER_SET_TOKEN is not set. Export it (export TOOLRUN_TEST_NEVER_SET_TOKEN=...) or give a default: \${TOOLRUN_TEST_NEVER_SET_TOKEN:-value}.`,
    });
  });
});

// Trace context through the gateway: serve's upstream request is the next hop of its client's call, so
// it carries the traceparent the client sent (semantic conventions for MCP: a server span continues
// params._meta's context). Before, serve sent a trace of its own and every trace broke at serve.
describe("serve continues its client's trace upstream", () => {
  const CALLER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  it('tools/call and prompts/get over stdio and HTTP carry the client traceparent; a call without one carries a valid trace of serve', { timeout: 60_000 }, async () => {
    const log = join(tempDir(), 'trace.jsonl');
    const traced = writeTempConfig({ mcpServers: { t: fixtureServer('trace-server.js', { env: { TRACE_LOG: log } }) } });
    const seen = () =>
      readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { method: string; meta: { traceparent?: string; tracestate?: string } })
        .filter((entry) => entry.method === 'tools/call' || entry.method === 'prompts/get');
    const stdio = new Client({ name: 'traced', version: '1' });
    open.add(stdio);
    await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--config', traced, 'serve'], env, stderr: 'ignore' }));
    await stdio.callTool({ name: 't__echo', arguments: { message: 'hi' }, _meta: { traceparent: CALLER, tracestate: 'vendor=1' } });
    await stdio.callTool({ name: 't__echo', arguments: { message: 'hi' } });
    const child = spawn(process.execPath, [BIN, '--config', traced, 'serve', '--http', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const http = new Client({ name: 'traced-http', version: '1' });
      open.add(http);
      await http.connect(new StreamableHTTPClientTransport(new URL(await servedUrl(child))));
      await http.callTool({ name: 't__echo', arguments: { message: 'hi' }, _meta: { traceparent: CALLER } });
      await http.getPrompt({ name: 't__broken', _meta: { traceparent: CALLER } }).catch(() => undefined);
      await http.close();
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    const [first, second, third, fourth] = seen().map((entry) => entry.meta);
    expect(first).toEqual({ traceparent: CALLER, tracestate: 'vendor=1' });
    expect(second!.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(second!.traceparent!.split('-')[1]).not.toBe(CALLER.split('-')[1]);
    expect(third!.traceparent).toBe(CALLER);
    expect(fourth!.traceparent).toBe(CALLER);
  });
});

// Issue 50 item 3: serve --lock serves what the lock pins, as pinned. A server that rewrote a tool's
// description, widened its schema, added or renamed a tool after toolrun.lock was written is served
// without those tools, and a call to one is refused with the reason.
describe('serve --lock hides what changed since toolrun.lock', () => {
  it('each rug pull (added, description, schema, rename) is hidden and refused; unchanged tools are served; no lock file is exit 2', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const rugFile = join(dir, 'notes.rug');
    const rugConfig = writeTempConfig({ mcpServers: { notes: fixtureServer('rug-server.js', { env: { RUG_FILE: rugFile } }) } });
    expect((await runInProcess(['--config', rugConfig, 'lock'], { cwd: dir })).exitCode).toBe(0);
    const served = async (mode: string) => {
      writeFileSync(rugFile, mode);
      const client = new Client({ name: 'locked', version: '1' });
      open.add(client);
      const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--config', rugConfig, 'serve', '--lock', 'notes'], env, cwd: dir, stderr: 'pipe' });
      let stderr = '';
      transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await client.connect(transport);
      const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
      return { client, names, stderr: () => stderr };
    };
    const clean = await served('none');
    expect(clean.names).toEqual(['echo', 'get_current_datetime', 'math_eval', 'notes__read_notes', 'notes__send_note']);
    await clean.client.close();
    for (const [mode, hidden, reason] of [
      ['description', 'notes__read_notes', "tool 'read_notes' of 'notes' changed since toolrun.lock was written"],
      ['schema', 'notes__read_notes', "tool 'read_notes' of 'notes' changed since toolrun.lock was written"],
      ['added', 'notes__export_notes', "tool 'export_notes' was added to 'notes' since toolrun.lock was written"],
      ['rename', 'notes__post_note', "tool 'post_note' was added to 'notes' since toolrun.lock was written"],
    ] as const) {
      const { client, names, stderr } = await served(mode);
      expect(names, mode).not.toContain(hidden);
      expect(names, mode).toContain('math_eval');
      const refused = (await client.callTool({ name: hidden, arguments: { folder: 'inbox' } }).catch((error: unknown) => error)) as { code?: number; message?: string };
      expect(refused.code, mode).toBe(-32602);
      expect(refused.message, mode).toContain(`Tool ${hidden} is not served (toolrun serve --lock): ${reason}`);
      expect(stderr(), mode).toContain(`not serving ${hidden}: ${reason}`);
      await client.close();
    }
    const missing = await runInProcess(['--config', rugConfig, 'serve', '--lock', 'nope.lock'], { cwd: dir });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe('✖ nope.lock: no such file; pin the servers first with: toolrun lock');
  });
});
