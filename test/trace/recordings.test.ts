import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fixtureServerScript } from '../helpers/bundled-servers.js';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { BIN, ROOT } from '../helpers/run-toolrun.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// SPEC §23: `mcp tap` and recordings keep the trace ids. Tap passes what the host sent through
// unchanged (its traceparent, or none) and records it; a recording made by toolrun's own client
// (check-stdout --save) holds the traceparent each request carried; `mcp show` shows them and
// `mcp replay` sends them again as recorded.

const CALLER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const OTHER = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

function received(log: string): Array<{ method: string; meta: { traceparent?: string } }> {
  return existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
}

function requestTraces(stdout: string): Array<[string, string | undefined]> {
  const events = JSON.parse(stdout).events as Array<{ kind: string; from: string; method: string; traceparent?: string }>;
  return events.filter((event) => event.kind === 'request' && event.from === 'client').map((event) => [event.method, event.traceparent]);
}

describe('trace ids in tap and recordings', () => {
  it("tap forwards the host's traceparent unchanged (and adds none), records it; show and replay keep it", async () => {
    const dir = tempDir();
    const record = join(dir, 'tap.rec');
    const log = join(dir, 'server.log');
    const marker = newProcessMarker();
    // TRACEPARENT in tap's own environment must not leak into what the host sent.
    const child = execa(process.execPath, [BIN, 'mcp', 'tap', '--record', record, '--', process.execPath, fixtureServerScript('trace-server.js')], {
      cwd: ROOT,
      reject: false,
      env: { ...process.env, ...marker.env, TRACE_LOG: log, TRACEPARENT: OTHER },
      stdin: 'pipe',
    });
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host', version: '1' }, _meta: { traceparent: CALLER } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' }, _meta: { traceparent: CALLER, tracestate: 'rojo=1' } } },
    ];
    child.stdin!.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
    expect((await child).exitCode).toBe(0);
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
    expect(received(log).map((request) => [request.method, request.meta])).toEqual([
      ['initialize', { traceparent: CALLER }],
      ['tools/list', {}],
      ['tools/call', { traceparent: CALLER, tracestate: 'rojo=1' }],
    ]);
    const sent = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((line) => line.dir === 'send');
    expect(sent.map((line) => JSON.parse(line.text).params?._meta?.traceparent)).toEqual([CALLER, undefined, undefined, CALLER]);

    const shown = await runInProcess(['--json', 'mcp', 'show', record]);
    expect(requestTraces(shown.stdout)).toEqual([
      ['initialize', CALLER],
      ['tools/list', undefined],
      ['tools/call', CALLER],
    ]);
    const text = await runInProcess(['mcp', 'show', record]);
    expect(text.stdout).toMatch(new RegExp(`→ tools/call #3 traceparent ${CALLER}\\n`));

    // Replay sends the recorded requests as they were: the recorded trace, not the replay's.
    const replayLog = join(dir, 'replay.log');
    const replayed = await runCleanInProcess(['mcp', 'replay', record, '--', process.execPath, fixtureServerScript('trace-server.js')], { env: { TRACE_LOG: replayLog, TRACEPARENT: OTHER } });
    expect(replayed.exitCode).toBe(0);
    expect(received(replayLog).map((request) => request.meta.traceparent)).toEqual([CALLER, undefined, CALLER]);
  });

  it.each(['2026-07-28', '2025-11-25'])('a recording of toolrun’s own client (check-stdout --save, %s) keeps the traceparent of every request', async (protocol) => {
    const config = writeTempConfig({ mcpServers: { traced: fixtureServer('trace-server.js') } });
    const record = join(tempDir(), 'own.rec');
    const saved = await runCleanInProcess(['--config', config, '--protocol', protocol, '--trace-parent', CALLER, 'mcp', 'check-stdout', 'traced', '--call', 'echo', 'message=hi', '--save', record]);
    expect(saved.exitCode).toBe(0);
    const shown = await runInProcess(['--json', 'mcp', 'show', record]);
    const traces = requestTraces(shown.stdout);
    expect(traces.map(([method]) => method)).toContain('tools/call');
    expect(traces.map(([, traceparent]) => traceparent)).toEqual(traces.map(() => CALLER));
  });
});
