import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startHttpFixture } from '../helpers/http-fixture.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, writeTempConfig } from '../helpers/temp-config.js';

// `mcp conform --trace` (SPEC §23): toolrun runs an OTLP/HTTP receiver, starts a stdio server with
// OTEL_EXPORTER_OTLP_ENDPOINT pointing to it (an HTTP server is pointed there by its owner:
// --trace-port), calls it, and checks that the server's spans continue toolrun's trace.
// fixtures/servers/trace-server.js exports one SERVER span per tools/call: SPANS=continue (a child
// of _meta.traceparent), SPANS=own (a trace of its own: the bug of mcpsnoop#158).

interface Check {
  id: string;
  verdict: string;
  message: string;
  evidence: Array<{ detail: string }>;
}

const TRACE_CHECK = 'trace.continues-client-trace';

async function conform(server: Record<string, unknown>, args: string[], env: Record<string, string | undefined> = {}) {
  const config = writeTempConfig({ mcpServers: { traced: server } });
  const result = await runInProcess(['--json', '--config', config, 'mcp', 'conform', 'traced', '--call', 'echo', 'message=hi', ...args], {
    env: { TRACEPARENT: undefined, OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_EXPORTER_OTLP_PROTOCOL: undefined, ...env },
  });
  const report = JSON.parse(result.stdout) as { checks: Check[] };
  return { result, report, check: report.checks.find((check) => check.id === TRACE_CHECK) };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('mcp conform --trace', () => {
  it.each([
    ['2026-07-28', {}],
    ['2025-11-25', {}],
    ['2026-07-28', { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }],
  ])('stdio, %s %j: a server whose spans continue the trace passes (the last check, after the shutdown)', async (protocol, env) => {
    const { check, report } = await conform(fixtureServer('trace-server.js'), ['--protocol', protocol, '--trace'], env);
    expect(check).toMatchObject({ verdict: 'pass' });
    expect(check!.message).toMatch(/^\d+ server spans? continue toolrun's trace [0-9a-f]{32} \(tools\/call\)$/);
    expect(report.checks.at(-1)!.id).toBe(TRACE_CHECK);
  });

  it('stdio: a server that starts a trace of its own fails, exit 1, each span named', async () => {
    const { check, result } = await conform(fixtureServer('trace-server.js', { env: { SPANS: 'own' } }), ['--trace']);
    expect(result.exitCode).toBe(1);
    expect(check!.verdict).toBe('fail');
    expect(check!.message).toMatch(
      /^(\d+) of \1 server spans? do not continue toolrun's trace; 'tools\/call echo' is in trace [0-9a-f]{32}, not toolrun's [0-9a-f]{32} \(a trace of its own\) \(use the traceparent in params\._meta as the server span's parent\)$/,
    );
    expect(check!.evidence[0]!.detail).toMatch(/^span 'tools\/call echo' \(trace [0-9a-f]{32}, span [0-9a-f]{16}\): is in trace /);
  });

  it('stdio: a server that exports nothing is a skip saying so, not a pass', async () => {
    const { check } = await conform(fixtureServer('v2-server.js'), ['--trace']);
    expect(check).toMatchObject({ verdict: 'skip', message: 'the server exported no spans' });
  });

  it.each(['2026-07-28', '2025-11-25'])('HTTP, %s: the server exports to --trace-port; its spans continue the trace', async (protocol) => {
    const port = await freePort();
    const http = await startHttpFixture('trace-server.js', { TRANSPORT: 'http', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
    try {
      const { check, result } = await conform({ url: http.url }, ['--protocol', protocol, '--trace', '--trace-port', String(port)]);
      expect(check).toMatchObject({ verdict: 'pass' });
      expect(result.stderr).toContain(`OTLP receiver for --trace on http://127.0.0.1:${port}: the server must export its spans there (OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:${port})`);
    } finally {
      await http.stop();
    }
  });

  it("HTTP: a server whose MCP span follows the HTTP traceparent header instead of _meta's fails (the aws-otel-python#826 bug)", async () => {
    const port = await freePort();
    const http = await startHttpFixture('trace-server.js', { TRANSPORT: 'http', SPANS: 'header', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
    try {
      const { check, result } = await conform({ url: http.url }, ['--trace', '--trace-port', String(port)]);
      expect(result.exitCode).toBe(1);
      expect(check!.verdict).toBe('fail');
      expect(check!.message).toMatch(/server spans? do not continue toolrun's trace; 'tools\/call echo' has the HTTP request's traceparent header as parent, not the traceparent in params\._meta/);
    } finally {
      await http.stop();
    }
  });

  it('without --trace the profile is unchanged: no trace check', async () => {
    const { report } = await conform(fixtureServer('trace-server.js'), []);
    expect(report.checks.map((check) => check.id)).not.toContain(TRACE_CHECK);
  });

  it('--trace-port without --trace is a usage error, exit 2', async () => {
    const config = writeTempConfig({ mcpServers: { traced: fixtureServer('trace-server.js') } });
    const result = await runInProcess(['--config', config, 'mcp', 'conform', 'traced', '--trace-port', '4319']);
    expect(result).toEqual({ exitCode: 2, stdout: '', stderr: '✖ --trace-port is for --trace; add --trace' });
  });
});
