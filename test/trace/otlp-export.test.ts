import { createServer } from 'node:net';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHttpFixture, startSessionHttpServer, type HttpFixture } from '../helpers/http-fixture.js';
import { startOtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, writeTempConfig } from '../helpers/temp-config.js';

// --otlp URL / OTEL_EXPORTER_OTLP_ENDPOINT (SPEC §23): the command's spans exported over OTLP/HTTP
// with the OpenTelemetry JS SDK, named and attributed per the OpenTelemetry semantic conventions for
// MCP (semantic-conventions-genai docs/gen-ai/mcp.md, "Client" span), flushed before the exit.

const CALLER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const CLIENT = 3;
const INTERNAL = 1;
const STATUS_ERROR = 2;

function lastTraceparentOf(log: string, method: string): string | undefined {
  if (!existsSync(log)) return undefined;
  const lines = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { method: string; meta: { traceparent?: string } });
  return lines.filter((line) => line.method === method).at(-1)?.meta.traceparent;
}

describe('--otlp exports the command spans', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolrun-otlp-'));
  const stdioLog = join(dir, 'stdio.log');
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let http: HttpFixture;
  let sessions: HttpFixture;
  let config: string;
  beforeAll(async () => {
    [receiver, http, sessions] = await Promise.all([startOtlpReceiver(), startHttpFixture('trace-server.js', { TRANSPORT: 'http' }), startSessionHttpServer()]);
    config = writeTempConfig({ mcpServers: { stdio: fixtureServer('trace-server.js', { env: { TRACE_LOG: stdioLog } }), http: { url: http.url }, sessions: { url: sessions.url } } });
  });
  afterAll(async () => {
    await Promise.all([receiver?.stop(), http?.stop(), sessions?.stop()]);
  });
  beforeEach(() => {
    receiver.spans.length = 0;
  });

  const run = (args: string[], env: Record<string, string | undefined> = {}) =>
    runInProcess(['--config', config, ...args], { env: { TRACEPARENT: undefined, OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined, ...env } });
  const byName = (name: string) => receiver.spans.find((span) => span.name === name);

  it.each([
    ['2026-07-28', 'server/discover'],
    ['2025-11-25', 'initialize'],
  ])('stdio, %s: a CLIENT span per request under the command span, named {mcp.method.name} {target}; the server is sent its span as parent', async (protocol, handshake) => {
    const result = await run(['--otlp', receiver.url, '--protocol', protocol, 'exec', 'stdio:echo', 'message=hi']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'Echo: hi' });
    expect(result.stderr).not.toContain('⚠');
    const root = byName('toolrun exec')!;
    expect(root).toMatchObject({ kind: INTERNAL, service: 'toolrun' });
    expect(root.parentSpanId).toBeUndefined();
    expect(receiver.spans.map((span) => span.name).sort()).toEqual([handshake, 'tools/call echo', 'tools/list', 'toolrun exec'].sort());
    for (const span of receiver.spans.filter((span) => span !== root)) {
      expect(span).toMatchObject({ traceId: root.traceId, parentSpanId: root.spanId, kind: CLIENT });
      expect(span.attributes).toMatchObject({ 'mcp.method.name': span.name.split(' ')[0], 'network.transport': 'pipe' });
      expect(typeof span.attributes['jsonrpc.request.id']).toBe('string');
    }
    const call = byName('tools/call echo')!;
    expect(call.attributes).toMatchObject({ 'gen_ai.tool.name': 'echo', 'gen_ai.operation.name': 'execute_tool', 'mcp.protocol.version': protocol });
    expect(call.status?.code ?? 0).not.toBe(STATUS_ERROR);
    // 2026-07-28 names the revision in every request, the era probe included.
    if (handshake === 'server/discover') expect(byName(handshake)!.attributes['mcp.protocol.version']).toBe(protocol);
    // The server is told toolrun's request span is its parent.
    expect(lastTraceparentOf(stdioLog, 'tools/call')).toBe(`00-${root.traceId}-${call.spanId}-01`);
  });

  it("--trace-parent: the command span is a child of the caller's span, in the caller's trace", async () => {
    const result = await run(['--otlp', receiver.url, '--trace-parent', CALLER, 'exec', 'stdio:echo', 'message=hi']);
    expect(result.exitCode).toBe(0);
    const root = byName('toolrun exec')!;
    expect(root).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentSpanId: '00f067aa0ba902b7' });
    expect(new Set(receiver.spans.map((span) => span.traceId))).toEqual(new Set(['4bf92f3577b34da6a3ce929d0e0e4736']));
  });

  it('a tool that answers isError: error.type tool_error and status ERROR; the exit code is the tool failure (1)', async () => {
    const result = await run(['--otlp', receiver.url, 'exec', 'stdio:fail']);
    expect(result.exitCode).toBe(1);
    const call = byName('tools/call fail')!;
    expect(call.attributes['error.type']).toBe('tool_error');
    expect(call.status).toMatchObject({ code: STATUS_ERROR, message: 'it failed' });
    expect(byName('toolrun exec')!.attributes['process.exit.code']).toBe(1);
  });

  it('a JSON-RPC error: error.type and rpc.response.status_code are its code', async () => {
    const result = await run(['--otlp', receiver.url, 'prompts', 'get', 'stdio:broken']);
    expect(result.exitCode).not.toBe(0);
    const get = byName('prompts/get broken')!;
    expect(get.attributes).toMatchObject({ 'gen_ai.prompt.name': 'broken' });
    expect(String(get.attributes['error.type'])).toMatch(/^-32\d{3}$/);
    expect(get.attributes['rpc.response.status_code']).toBe(get.attributes['error.type']);
    expect(get.status?.code).toBe(STATUS_ERROR);
  });

  it.each([
    ['2026-07-28', 'server/discover'],
    ['2025-11-25', 'initialize'],
  ])('HTTP, %s: server.address and server.port, network.transport tcp', async (protocol, handshake) => {
    const result = await run(['--protocol', protocol, 'exec', 'http:echo', 'message=hi'], { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    expect(result.exitCode).toBe(0);
    const port = Number(new URL(http.url).port);
    for (const name of [handshake, 'tools/list', 'tools/call echo']) {
      expect(byName(name)?.attributes).toMatchObject({ 'network.transport': 'tcp', 'network.protocol.name': 'http', 'server.address': '127.0.0.1', 'server.port': port });
    }
    expect(receiver.contentTypes.at(-1)).toBe('application/json');
  });

  it('HTTP with a session: mcp.session.id on the requests made in it', async () => {
    const result = await run(['--otlp', receiver.url, '--protocol', '2025-11-25', 'exec', 'sessions:echo', 'message=hi']);
    expect(result.exitCode).toBe(0);
    expect(byName('tools/call echo')!.attributes['mcp.session.id']).toMatch(/\S+/);
    expect(byName('initialize')!.attributes['mcp.session.id']).toBeUndefined();
  });

  it('a collector that is down: one warning, the result and exit code unchanged', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const result = await run(['--otlp', `http://127.0.0.1:${port}`, 'exec', 'stdio:echo', 'message=hi']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('Echo: hi');
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('⚠'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^⚠ spans not exported to http://127\\.0\\.0\\.1:${port}/v1/traces: .+`));
  });

  it.each([[['--otlp', 'localhost:4318'], {}, "✖ --otlp 'localhost:4318' is not an http(s) URL; toolrun exports OTLP over HTTP, e.g. http://localhost:4318"]])(
    'a bad --otlp is a one-line usage error, exit 2 (%j %j)',
    async (args, env, message) => {
      const result = await run([...args, 'exec', 'get_current_datetime'], env);
      expect(result).toEqual({ exitCode: 2, stdout: '', stderr: message });
    },
  );

  it('a bad OTEL_EXPORTER_OTLP_ENDPOINT in the environment is a warning: the command runs, nothing is exported', async () => {
    const result = await run(['exec', 'math_eval', 'expression=1+1'], { OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ result: 2 });
    expect(result.stderr.split('\n')[0]).toBe("⚠ OTEL_EXPORTER_OTLP_ENDPOINT 'not a url' is not a URL: spans are not exported");
  });

  it("OTEL_EXPORTER_OTLP_HEADERS (a hosted collector's key) is sent with the export, its values URL-decoded", async () => {
    const result = await run(['--otlp', receiver.url, 'exec', 'get_current_datetime'], { OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=s3cr%20et,x-team=tools' });
    expect(result.exitCode).toBe(0);
    expect(receiver.headers.at(-1)).toMatchObject({ 'x-api-key': 's3cr et', 'x-team': 'tools' });
  });

  it('no spans are sent without --otlp or OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    const result = await run(['exec', 'stdio:echo', 'message=hi']);
    expect(result.exitCode).toBe(0);
    expect(receiver.spans satisfies ReceivedSpan[]).toEqual([]);
  });
});
