import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpFixture, type HttpFixture } from '../helpers/http-fixture.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { writeTempConfig } from '../helpers/temp-config.js';

// Wire rules of the official conformance suite's client scenarios (issue #22 point 6), from the built
// CLI against raw HTTP servers: fixtures/servers/wire-rules-server.js (2026-07-28) and
// sse-resume-server.js (2025-11-25).

const BAD_TOOLS = ['bad_empty', 'bad_object', 'bad_number', 'bad_duplicate', 'bad_colon', 'bad_items'];

describe('x-mcp-header annotations over Streamable HTTP (SEP-2243, http-invalid-tool-headers, http-custom-headers)', () => {
  let server: HttpFixture;
  let config: string;
  beforeAll(async () => {
    server = await startHttpFixture('wire-rules-server.js', {});
    config = writeTempConfig({ mcpServers: { wire: { url: server.url } } });
  });
  afterAll(() => server?.stop());

  it('list leaves out the tools whose annotations break the rules, each named with why on stderr', async () => {
    const result = await runInProcess(['--json', '--config', config, 'list', '--server', 'wire']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).tools.map((tool: { name: string }) => tool.name)).toEqual(['headers', 'schema_2020_12', 'echo_schema']);
    for (const name of BAD_TOOLS) expect(result.stderr).toContain(`⚠ MCP server 'wire': tool '${name}' left out, its definition is broken: `);
    expect(result.stderr).toContain("tool 'bad_colon' left out, its definition is broken: property 'value': x-mcp-header \"Region:Primary\" is not a valid HTTP header name");
    expect(result.stderr).toContain(
      "tool 'bad_number' left out, its definition is broken: property 'ratio': x-mcp-header is only allowed on a string, integer or boolean property (this one is number)",
    );
  });

  it('exec of a left-out tool is refused before anything is sent (exit 1, the reason named)', async () => {
    const result = await runInProcess(['--config', config, 'exec', 'wire:bad_empty', 'value=x']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("Tool 'bad_empty' of MCP server 'wire' has a broken definition (property 'value': x-mcp-header is empty (it must name the header)); the server must fix it.");
  });

  it('validate reports each as a tool problem citing the 2026-07-28 transport rules (exit 1)', async () => {
    const result = await runInProcess(['--config', config, 'validate']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout + result.stderr).toContain(
      '✖ wire:bad_duplicate: property \'b\': x-mcp-header "myfield" repeats "MyField" (header names must be unique, ignoring case); the tool is left out (its other tools work) (MCP 2026-07-28 basic/transports § Custom Headers from Tool Parameters)',
    );
  });

  it('exec mirrors the annotated arguments into Mcp-Param-* headers: plain, typed, base64 when unsafe, none for null or absent', async () => {
    const args = ['region=us-west1', 'priority:=42', 'debug:=true', 'greeting=Hello, 世界', 'padded= x ', 'verbose:=null', 'query=SELECT 1'];
    const result = await runInProcess(['--config', config, 'exec', 'wire:headers', ...args, '--no-validate']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      'mcp-param-region': 'us-west1',
      'mcp-param-priority': '42',
      'mcp-param-debug': 'true',
      'mcp-param-greeting': `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`,
      'mcp-param-padded': `=?base64?${Buffer.from(' x ').toString('base64')}?=`,
    });
  });

  it('a JSON Schema 2020-12 inputSchema is listed as the server sent it, and goes back unchanged as an argument', async () => {
    const listed = await runInProcess(['--json', '--config', config, 'list', '--server', 'wire']);
    const schema = JSON.parse(listed.stdout).tools.find((tool: { name: string }) => tool.name === 'schema_2020_12').parameters;
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', $defs: { address: { $anchor: 'addressDef' } }, additionalProperties: false, if: {}, then: {}, else: {} });
    const echoed = await runInProcess(['--config', config, 'exec', 'wire:echo_schema', '--args', JSON.stringify({ schema })]);
    expect(echoed.exitCode).toBe(0);
    expect(JSON.parse(echoed.stdout)).toEqual(schema);
  });
});

describe('-32022 UnsupportedProtocolVersionError with data.supported (SEP-2575, request-metadata)', () => {
  const servers: HttpFixture[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startHttpFixture('wire-rules-server.js', env);
    servers.push(server);
    return writeTempConfig({ mcpServers: { wire: { url: server.url } } });
  };
  afterAll(() => Promise.all(servers.map((server) => server.stop())));

  it('a first refusal listing 2026-07-28 is asked once more with it, and the connection goes on', async () => {
    const config = await start({ REJECT_FIRST: '1' });
    const result = await runInProcess(['--json', '--config', config, 'mcp', 'doctor', 'wire']);
    const initialize = JSON.parse(result.stdout).steps.find((step: { id: string }) => step.id === 'initialize');
    expect(initialize).toMatchObject({
      status: 'ok',
      data: { protocol_version: '2026-07-28', protocol_how: 'server/discover refused 2026-07-28 (-32022), asked again with 2026-07-28: answered, offering 2026-07-28' },
    });
  });

  it('a server that refuses it again is unreachable at once, saying so (exit 4, one attempt)', async () => {
    const config = await start({ REJECT_ALWAYS: '1' });
    const result = await runInProcess(['--config', config, 'exec', 'wire:echo_schema', 'schema:={}']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('MCP connection failed after 1 attempt');
    expect(result.stderr).toContain('the server refused MCP 2026-07-28 twice (-32022) though it lists it as supported');
  });

  it('a refusal listing only a 2025 revision toolrun speaks falls back to initialize', async () => {
    const config = await start({ REJECT_ALWAYS: '1', SUPPORTED: '2025-11-25' });
    const result = await runInProcess(['--json', '--config', config, 'exec', 'wire:echo_schema', 'schema:={"a":1}']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true, result: '{"a":1}' });
  });
});

describe('SSE stream resumption (SEP-1699, sse-retry)', () => {
  let server: HttpFixture;
  beforeAll(async () => {
    server = await startHttpFixture('sse-resume-server.js', { RETRY_MS: '300' });
  });
  afterAll(() => server?.stop());

  it('a call whose stream closes before its result is resumed with Last-Event-ID after the retry delay', async () => {
    const config = writeTempConfig({ mcpServers: { resume: { url: server.url } } });
    const result = await runInProcess(['--config', config, 'exec', 'resume:resume']);
    expect(result.exitCode).toBe(0);
    const match = /^resumed after Last-Event-ID call-1, (\d+) ms after the stream closed$/.exec(result.stdout.trim());
    expect(match, result.stdout + result.stderr).not.toBeNull();
    // The server's `retry: 300` is honoured (not reconnected at once), generously bounded above.
    expect(Number(match![1])).toBeGreaterThanOrEqual(250);
    expect(Number(match![1])).toBeLessThan(5000);
  });
});

describe('a 2026-07-28 result without resultType (SEP-2322, sep-2322-client-request-state)', () => {
  let server: HttpFixture | undefined;
  afterAll(() => server?.stop());

  it('is complete: the call succeeds with its content', async () => {
    server = await startHttpFixture('wire-rules-server.js', { NO_RESULT_TYPE: '1' });
    const config = writeTempConfig({ mcpServers: { wire: { url: server.url } } });
    const result = await runInProcess(['--no-session', '--config', config, 'exec', 'wire:echo_schema']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'called echo_schema, no resultType' });
  });
});
