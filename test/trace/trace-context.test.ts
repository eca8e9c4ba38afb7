import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpFixture, type HttpFixture } from '../helpers/http-fixture.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, writeTempConfig } from '../helpers/temp-config.js';

// W3C trace context on every request toolrun sends (SPEC §23): in params._meta and, over HTTP, the
// traceparent header; continued from --trace-parent or TRACEPARENT, else a new trace per command.
// fixtures/servers/trace-server.js notes what each request it received carried.

interface Received {
  method: string;
  meta: { traceparent?: string; tracestate?: string };
  header: { traceparent?: string; tracestate?: string } | null;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const CALLER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

function readLog(file: string): Received[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Received)
    : [];
}

describe('trace context on every request', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolrun-trace-'));
  const stdioLog = join(dir, 'stdio.log');
  const httpLog = join(dir, 'http.log');
  let http: HttpFixture;
  let config: string;
  let logOf: Record<string, string>;
  beforeAll(async () => {
    http = await startHttpFixture('trace-server.js', { TRANSPORT: 'http', TRACE_LOG: httpLog });
    config = writeTempConfig({ mcpServers: { stdio: fixtureServer('trace-server.js', { env: { TRACE_LOG: stdioLog } }), http: { url: http.url } } });
    logOf = { stdio: stdioLog, http: httpLog };
  });
  afterAll(async () => {
    await http?.stop();
  });

  /** Runs `args` and returns what the server received during the run. */
  async function received(server: string, args: string[], env: Record<string, string | undefined> = {}) {
    const before = readLog(logOf[server]!).length;
    const result = await runInProcess(['--config', config, ...args], { env: { TRACEPARENT: undefined, TRACESTATE: undefined, ...env } });
    return { result, requests: readLog(logOf[server]!).slice(before) };
  }

  describe.each([
    ['stdio', '2026-07-28', 'server/discover'],
    ['stdio', '2025-11-25', 'initialize'],
    ['http', '2026-07-28', 'server/discover'],
    ['http', '2025-11-25', 'initialize'],
  ])('%s, protocol %s', (server, protocol, handshake) => {
    it('every request of a run carries one new trace in _meta (and the HTTP header), the handshake included', async () => {
      const { result, requests } = await received(server, ['--protocol', protocol, 'exec', `${server}:echo`, 'message=hi']);
      expect(result).toMatchObject({ exitCode: 0, stdout: 'Echo: hi' });
      expect(requests.map((request) => request.method)).toEqual([handshake, 'tools/list', 'tools/call']);
      const traceIds = new Set(requests.map((request) => TRACEPARENT.exec(request.meta.traceparent ?? '')?.[1]));
      expect(traceIds.size).toBe(1);
      expect([...traceIds][0]).toMatch(/^[0-9a-f]{32}$/);
      for (const request of requests) expect(request.header).toEqual(server === 'http' ? { traceparent: request.meta.traceparent } : null);
      // The next command is another trace.
      const next = await received(server, ['--protocol', protocol, 'exec', `${server}:echo`, 'message=again']);
      expect(TRACEPARENT.exec(next.requests[0]!.meta.traceparent!)?.[1]).not.toBe([...traceIds][0]);
    });

    it("--trace-parent continues the caller's trace: its trace id, parent id and flags", async () => {
      const { result, requests } = await received(server, ['--protocol', protocol, '--trace-parent', CALLER, 'exec', `${server}:echo`, 'message=hi']);
      expect(result.exitCode).toBe(0);
      expect(requests).toHaveLength(3);
      for (const request of requests) {
        expect(request.meta).toEqual({ traceparent: CALLER });
        if (server === 'http') expect(request.header).toEqual({ traceparent: CALLER });
      }
    });
  });

  it.each(['stdio', 'http'])('TRACEPARENT and TRACESTATE in the environment are continued (%s)', async (server) => {
    const { result, requests } = await received(server, ['exec', `${server}:echo`, 'message=hi'], { TRACEPARENT: CALLER, TRACESTATE: 'rojo=00f067aa0ba902b7' });
    expect(result.exitCode).toBe(0);
    expect(requests).toHaveLength(3);
    for (const request of requests) {
      expect(request.meta).toEqual({ traceparent: CALLER, tracestate: 'rojo=00f067aa0ba902b7' });
      if (server === 'http') expect(request.header).toEqual({ traceparent: CALLER, tracestate: 'rojo=00f067aa0ba902b7' });
    }
  });

  it('--verbose prints the trace id and where it came from', async () => {
    const continued = await runInProcess(['--verbose', '--trace-parent', CALLER, 'exec', 'get_current_datetime'], { env: { TRACEPARENT: undefined } });
    expect(continued.stderr.split('\n')[0]).toBe('trace 4bf92f3577b34da6a3ce929d0e0e4736 (continued from --trace-parent)');
    const fresh = await runInProcess(['--verbose', 'exec', 'get_current_datetime'], { env: { TRACEPARENT: undefined } });
    expect(fresh.stderr.split('\n')[0]).toMatch(/^trace [0-9a-f]{32} \(new\)$/);
  });

  it.each([
    [
      ['--trace-parent', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
      {},
      "✖ --trace-parent '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01' is not a W3C traceparent: its parent id is not 16 lowercase hex digits, not all zero; give 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>",
    ],
  ])('an invalid --trace-parent is a one-line usage error, exit 2 (%j %j)', async (args, env, message) => {
    const result = await runInProcess([...args, 'exec', 'get_current_datetime'], { env });
    expect(result).toEqual({ exitCode: 2, stdout: '', stderr: message });
  });

  // W3C Trace Context: a traceparent that cannot be parsed starts a new trace. One a CI system or a
  // parent process left in the environment must not fail every command, built-in tools included.
  it('an invalid TRACEPARENT in the environment is a warning and a new trace; the command runs', async () => {
    const result = await runInProcess(['--verbose', 'exec', 'math_eval', 'expression=1+1'], { env: { TRACEPARENT: '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01' } });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ result: 2 });
    const lines = result.stderr.split('\n');
    expect(lines).toContain(
      "⚠ TRACEPARENT '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01' is not a W3C traceparent: its trace id is not 32 lowercase hex digits, not all zero: a new trace is started (unset or fix TRACEPARENT)",
    );
    expect(lines.some((line) => /^trace [0-9a-f]{32} \(new\)$/.test(line))).toBe(true);
  });
});
