import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startV2HttpServer, type HttpFixture } from '../helpers/http-fixture.js';
import { fixtureServer, SERVER_EVERYTHING, writeTempConfig } from '../helpers/temp-config.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { testCacheHome } from '../helpers/run-toolrun.js';
import { ToolIndex } from '../../src/cache/tool-index.js';
import { loadConfig } from '../../src/config/load-config.js';

// Servers built with the v2 SDK: one serving both eras, one 2026-07-28 only (legacy: 'reject'),
// over stdio and Streamable HTTP; and server-everything, a 2025-era server.
describe('both protocol eras (SPEC §10)', () => {
  let dualHttp: HttpFixture;
  let modernHttp: HttpFixture;
  let config: string;
  beforeAll(async () => {
    [dualHttp, modernHttp] = await Promise.all([startV2HttpServer(), startV2HttpServer({ LEGACY: 'reject' })]);
    config = writeTempConfig({
      mcpServers: {
        dual: fixtureServer('v2-server.js'),
        modern: fixtureServer('v2-server.js', { env: { LEGACY: 'reject' } }),
        dualhttp: { url: dualHttp.url },
        modernhttp: { type: 'http', url: modernHttp.url },
        everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] },
      },
    });
  });
  afterAll(async () => {
    await Promise.all([dualHttp?.stop(), modernHttp?.stop()]);
  });

  const modernServers = ['dual', 'modern', 'dualhttp', 'modernhttp'];

  it.each(modernServers)('exec calls a tool of %s in the 2026-07-28 era', async (server) => {
    const result = await runInProcess(['--json', '--config', config, 'exec', `${server}:add`, 'a=2', 'b=3']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true, result: { sum: 5 }, tool_name: 'add', server });
  });

  it.each(modernServers)('doctor reports the era, the version and how it was chosen for %s, and checks a --call result', async (server) => {
    const result = await runInProcess(['--json', '--config', config, 'mcp', 'doctor', server, '--call', 'add', 'a:=1', 'b:=2']);
    const report = JSON.parse(result.stdout);
    const initialize = report.steps.find((step: { id: string }) => step.id === 'initialize');
    expect(initialize).toMatchObject({
      status: 'ok',
      data: {
        handshake: 'server/discover',
        protocol_version: '2026-07-28',
        protocol_era: 'modern',
        protocol_chosen_by: 'auto',
        protocol_how: 'server/discover answered, offering 2026-07-28',
        server_info: { name: 'v2-fixture' },
      },
    });
    expect(report.steps.find((step: { id: string }) => step.id === 'latency').finding).toMatch(/^server\/discover median [\d.]+ ms \(5 round trips\) · add answered in [\d.]+ ms$/);
    expect(report.steps.find((step: { id: string }) => step.id === 'tools').finding).toMatch(/ · the --call result matches add's outputSchema$/);
    expect(result.exitCode).toBe(0);
  });

  it('doctor reports a 2025-era server chosen automatically after server/discover is refused', async () => {
    const result = await runInProcess(['--json', '--config', config, 'mcp', 'doctor', 'everything']);
    const initialize = JSON.parse(result.stdout).steps.find((step: { id: string }) => step.id === 'initialize');
    expect(initialize.data).toMatchObject({
      handshake: 'initialize',
      protocol_version: '2025-11-25',
      protocol_era: 'legacy',
      protocol_how: 'server/discover refused (-32601 Method not found), then initialize',
    });
  });

  it.each(modernServers)('list and time work against %s, time naming the server/discover phase', async (server) => {
    const list = await runInProcess(['--json', '--config', config, 'list', '--server', server]);
    expect(list.exitCode).toBe(0);
    expect(JSON.parse(list.stdout).tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(['add', 'wrong_output', 'progress']));
    const time = await runInProcess(['--json', '--config', config, 'time', `${server}:add`, 'a=1', 'b=1', '-n', '5', '--warmup', '0']);
    expect(time.exitCode).toBe(0);
    const report = JSON.parse(time.stdout);
    expect(Object.keys(report.phases)).toContain(server.endsWith('http') ? 'connect_discover_ms' : 'server_discover_ms');
    expect(report.stats).toMatchObject({ count: 5, ok: 5, errors: 0 });
  });

  it.each(modernServers)('resources (list, templates, read) and prompts (list, get) work against %s', async (server) => {
    const resources = await runInProcess(['--json', '--config', config, 'resources', '--server', server]);
    expect(resources.exitCode).toBe(0);
    expect(JSON.parse(resources.stdout).resources.map((resource: { uri: string }) => resource.uri)).toEqual(['test://greeting', 'test://pixel.png']);
    const templates = await runInProcess(['--json', '--config', config, 'resources', '--templates', '--server', server]);
    expect(JSON.parse(templates.stdout).resourceTemplates.map((template: { uriTemplate: string }) => template.uriTemplate)).toEqual(['test://notes/{id}']);
    const read = await runInProcess(['--config', config, 'resources', 'read', 'test://notes/7', '--server', server]);
    expect(read).toMatchObject({ exitCode: 0, stdout: 'note 7' });
    const prompts = await runInProcess(['--config', config, 'prompts', '--server', server]);
    expect(prompts.stdout).toMatch(new RegExp(`^${server} +ask +topic\\*, tone +Ask about a topic$`, 'm'));
    const prompt = await runInProcess(['--config', config, 'prompts', 'get', `${server}:ask`, 'topic=eras', 'tone=dry']);
    expect(prompt).toMatchObject({ exitCode: 0, stdout: 'user:\nTell me about eras in a dry tone' });
  });

  it('a server that changed era since the tool index noted it still connects, in its new era; the note follows', async () => {
    // The index says what each spoke last time: it decides which client loads while the server starts.
    const env = { ...process.env, XDG_CACHE_HOME: testCacheHome() };
    const index = new ToolIndex(await loadConfig({ configPath: config, env }), env);
    index.record([
      { name: 'modern', tools: ['add'], era: 'legacy' },
      { name: 'everything', tools: ['echo'], era: 'modern' },
    ]);
    // Planted under the key the CLI computes for these entries: the wrong notes are the ones it reads.
    const before = new ToolIndex(await loadConfig({ configPath: config, env }), env);
    expect([before.knownEra('modern'), before.knownEra('everything')]).toEqual(['legacy', 'modern']);
    const modern = await runInProcess(['--json', '--config', config, 'exec', 'modern:add', 'a=2', 'b=3']);
    expect(JSON.parse(modern.stdout)).toMatchObject({ success: true, result: { sum: 5 } });
    const legacy = await runInProcess(['--json', '--config', config, 'exec', 'everything:echo', 'message=hi']);
    expect(JSON.parse(legacy.stdout)).toMatchObject({ success: true, server: 'everything' });
    const after = new ToolIndex(await loadConfig({ configPath: config, env }), env);
    expect([after.knownEra('modern'), after.knownEra('everything')]).toEqual(['modern', 'legacy']);
  });

  it('mcp list --check shows the protocol each server speaks', async () => {
    const result = await runInProcess(['--json', '--config', config, 'mcp', 'list', '--check']);
    expect(result.exitCode).toBe(0);
    const protocols = Object.fromEntries(
      JSON.parse(result.stdout).servers.map((server: { name: string; protocol_version: string; protocol_era: string }) => [server.name, `${server.protocol_version} ${server.protocol_era}`]),
    );
    expect(protocols).toEqual({ dual: '2026-07-28 modern', modern: '2026-07-28 modern', dualhttp: '2026-07-28 modern', modernhttp: '2026-07-28 modern', everything: '2025-11-25 legacy' });
    const table = await runInProcess(['--config', config, 'mcp', 'list', '--check']);
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+TRANSPORT\s+STATUS\s+TOOLS\s+RESOURCES\s+PROMPTS\s+PROTOCOL\s+CONNECT\s+AUTH\s+COMMAND \/ URL$/);
    expect(table.stdout).toMatch(/\neverything\s+stdio\s+✔ ok\s+15\s+7\s+4\s+2025-11-25\s+\d+ ms /);
  });

  it('--protocol fixes a 2025 revision: a dual-era server answers initialize with it', async () => {
    const result = await runInProcess(['--json', '--config', config, '--protocol', '2025-06-18', 'mcp', 'doctor', 'dual']);
    const initialize = JSON.parse(result.stdout).steps.find((step: { id: string }) => step.id === 'initialize');
    expect(initialize.data).toMatchObject({
      handshake: 'initialize',
      protocol_version: '2025-06-18',
      protocol_chosen_by: 'flag',
      protocol_how: 'fixed by --protocol: initialize asked for 2025-06-18',
    });
  });

  it('a 2026-07-28-only server refuses a fixed 2025 revision: one line, no retry, exit 4', async () => {
    const fixed = writeTempConfig({ mcpServers: { modern: fixtureServer('v2-server.js', { env: { LEGACY: 'reject' }, protocol: '2025-11-25' }) } });
    const result = await runInProcess(['--config', fixed, 'exec', 'modern:add', 'a=1', 'b=1']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'modern'");
    expect(result.stderr).toContain('  Reason: the server refused protocol version 2025-11-25 (it supports 2026-07-28)');
    expect(result.stderr).toContain('  Check: let toolrun choose the protocol ("protocol": "auto", the default), or fix it to 2026-07-28');
  });

  // Issue #19 item 8: over HTTP the refusal came as raw JSON with advice about old servers.
  it('a 2026-07-28-only HTTP server refuses a fixed 2025 revision in the same words as over stdio', async () => {
    const reason = 'the server refused protocol version 2025-11-25 (it supports 2026-07-28)';
    const fix = 'let toolrun choose the protocol ("protocol": "auto", the default), or fix it to 2026-07-28';
    const exec = await runInProcess(['--config', config, '--protocol', '2025-11-25', 'exec', 'modernhttp:add', 'a=1', 'b=1']);
    expect(exec.exitCode).toBe(4);
    expect(exec.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'modernhttp'");
    expect(exec.stderr).toContain(`  Reason: ${reason}\n  Check: ${fix}\n`);
    expect(exec.stderr).not.toContain('jsonrpc');
    expect(exec.stderr).not.toContain('retrying');
    const doctor = await runInProcess(['--json', '--config', config, '--protocol', '2025-11-25', 'mcp', 'doctor', 'modernhttp']);
    const report = JSON.parse(doctor.stdout);
    expect(report).toMatchObject({ exitCode: 4, problems: 1 });
    expect(report.steps.find((step: { id: string }) => step.id === 'initialize')).toMatchObject({ status: 'fail', finding: `${reason} (not retried: it would fail the same way)`, fix });
    const list = await runInProcess(['--json', '--config', config, '--protocol', '2025-11-25', 'mcp', 'list', '--check']);
    expect(JSON.parse(list.stdout).servers.find((server: { name: string }) => server.name === 'modernhttp')).toMatchObject({ status: 'failed', error: reason, cause: 'protocol-version', fix });
  });

  it('a 2025-era server with the protocol fixed to 2026-07-28 fails at once, naming the setting', async () => {
    const result = await runInProcess(['--config', config, '--protocol', '2026-07-28', 'exec', 'everything:echo', 'message=hi']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('  Reason: protocol is fixed to 2026-07-28 by --protocol, but the server does not speak it (server/discover refused (-32601 Method not found)); set it to "auto"');
    expect(result.stderr).not.toContain('retrying');
  });

  // Issue #19 item 6: the v2 client's timeout is an SdkError 'REQUEST_TIMEOUT', not the v1 SDK's -32001.
  it('a call that outlives --timeout is a timeout in the 2026-07-28 era too (stdio and HTTP), worded as in the 2025 era', async () => {
    const eras = writeTempConfig({
      mcpServers: { legacy: fixtureServer('slow-tool-server.js'), modern: fixtureServer('v2-server.js', { env: { LEGACY: 'reject' } }), modernhttp: { type: 'http', url: modernHttp.url } },
    });
    const run = async (server: string) => {
      const [json, human] = await Promise.all([
        runInProcess(['--config', eras, 'exec', '--json', '--timeout', '200', `${server}:slow_tool`, 'ms:=5000']),
        runInProcess(['--config', eras, 'exec', '--timeout', '200', `${server}:slow_tool`, 'ms:=5000']),
      ]);
      // The envelope says timeout (below): the 5 s call did not run to its end. No clock is compared.
      const { execution_time_ms: _elapsed, ...envelope } = JSON.parse(json.stdout);
      return { exitCodes: [json.exitCode, human.exitCode], envelope: { ...envelope, server: 'S' }, stderr: human.stderr.trim() };
    };
    const [legacy, modern, modernhttp] = await Promise.all([run('legacy'), run('modern'), run('modernhttp')]);
    expect(legacy).toEqual({
      exitCodes: [1, 1],
      envelope: { success: false, error: "Tool 'slow_tool' timed out after 200 ms (raise it with --timeout or timeoutMs)", error_kind: 'timeout', tool_name: 'slow_tool', source: 'mcp', server: 'S' },
      stderr: "✖ slow_tool: Tool 'slow_tool' timed out after 200 ms (raise it with --timeout or timeoutMs)",
    });
    expect(modern).toEqual(legacy);
    expect(modernhttp).toEqual(legacy);
  }, 60_000);

  it('an unknown protocol is a usage error (flag) or a config error (entry)', async () => {
    const flag = await runInProcess(['--protocol', '2099-01-01', 'list']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toContain("unknown protocol '2099-01-01'; use auto, 2026-07-28, 2025-11-25");
    const entry = writeTempConfig({ mcpServers: { x: fixtureServer('v2-server.js', { protocol: 'latest' }) } });
    const result = await runInProcess(['--config', entry, 'list']);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('mcpServers.x.protocol: unknown protocol \'latest\'; use "auto", "2026-07-28"');
  });
});
