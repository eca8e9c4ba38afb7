import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { runToolrun } from '../helpers/run-toolrun.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// SPEC §23 with SPEC §12: a call a session holder makes for a command carries the command's trace
// context (--trace-parent, TRACEPARENT), not the holder's own; the warm fast path leaves a traced
// exec to the full CLI, which hands the trace to the holder.

const CALLER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const OTHER = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('trace context through a session holder', () => {
  it('exec through a warm holder continues the command trace: --trace-parent in process, TRACEPARENT through the binary', async () => {
    const log = join(tempDir(), 'trace.log');
    const config = writeTempConfig({ mcpServers: { traced: fixtureServer('trace-server.js', { env: { TRACE_LOG: log } }) } });
    const marker = newProcessMarker();
    const env = { XDG_RUNTIME_DIR: tempDir(), ...marker.env };
    const calls = () =>
      (existsSync(log)
        ? readFileSync(log, 'utf8')
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as { method: string; meta: { traceparent?: string } })
        : []
      ).filter((line) => line.method === 'tools/call');
    try {
      expect((await runInProcess(['--config', config, 'session', 'start'], { env })).exitCode).toBe(0);
      const inProcess = await runInProcess(['--config', config, '--trace-parent', CALLER, 'exec', 'traced:echo', 'message=one'], { env });
      expect(inProcess).toMatchObject({ exitCode: 0, stdout: 'Echo: one' });
      const spawned = await runToolrun(['--config', config, 'exec', 'traced:echo', 'message=two'], { env: { ...env, TRACEPARENT: OTHER } });
      expect(spawned).toMatchObject({ exitCode: 0, stdout: 'Echo: two' });
      expect(calls().map((call) => call.meta.traceparent)).toEqual([CALLER, OTHER]);
      // One handshake: the holder's server served both calls, no cold start did.
      const methods = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).method as string);
      expect(methods.filter((method) => method === 'server/discover' || method === 'initialize')).toEqual(['server/discover']);
    } finally {
      await runInProcess(['session', 'stop', '--all'], { env });
    }
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });
});
