import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBackends } from '../helpers/databases.js';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { runCleanInProcess } from '../helpers/run-in-process.js';
import { ROOT, runToolrun } from '../helpers/run-toolrun.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// Issue #19 item 10: after a call, a server that ignores stdin EOF is given SIGTERM as soon as it
// sits idle, not after a fixed second; one that is busy exiting gets the whole grace; doctor, which
// judges how a server exits, still waits the whole grace. (Measurements: src/process/shutdown-steps.ts.)

const POSTGRES_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-postgres', 'dist', 'index.js');
const REDIS_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-redis', 'dist', 'index.js');

/** The recorder's log as [event, time] pairs (LOG_TIMES=1). */
const readTimedLog = (path: string) =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(' ') as [string, string])
        .map(([event, time]) => [event, Number(time)] as const)
    : [];

function recorder(env: Record<string, string>) {
  const log = join(tempDir(), 'shutdown.log');
  const config = writeTempConfig({ mcpServers: { rec: fixtureServer('shutdown-recorder-server.js', { env: { SHUTDOWN_LOG: log, LOG_TIMES: '1', ...env } }) } });
  return { log, config };
}

describe('exec ends a server that ignores stdin EOF soon after it goes idle', () => {
  it('SIGTERM comes a few hundred ms after stdin closed, not after the whole 1 s grace', async () => {
    const { log, config } = recorder({ IGNORE_STDIN_EOF: '1' });
    const result = await runCleanInProcess(['--config', config, 'exec', 'rec:wait', 'ms=0']);
    expect(result.exitCode).toBe(0);
    const events = readTimedLog(log);
    expect(events.map(([event]) => event)).toEqual(['call', 'stdin-eof', 'SIGTERM']);
    // How soon (~250 ms: idle for 200 ms; 1000 ms or more with a fixed grace) is a timing claim a
    // loaded machine breaks: npm run bench's 'exec: stdin EOF to SIGTERM…' holds it (< 800 ms).
    process.stderr.write(`[measure] exec, a server that ignores stdin EOF: SIGTERM ${events[2]![1] - events[1]![1]} ms after EOF\n`);
  });

  it('a server busy exiting after stdin closed is not hurried: it exits by itself', async () => {
    const { log, config } = recorder({ BUSY_EXIT_MS: '600' });
    const result = await runCleanInProcess(['--config', config, 'exec', 'rec:wait', 'ms=0']);
    expect(result.exitCode).toBe(0);
    expect(readTimedLog(log).map(([event]) => event)).toEqual(['call', 'stdin-eof', 'exit']);
  });

  it('doctor still waits the whole grace before SIGTERM: it judges how the server exits', async () => {
    const { log, config } = recorder({ IGNORE_STDIN_EOF: '1' });
    const doctor = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'rec']);
    const shutdown = (JSON.parse(doctor.stdout).steps as Array<{ id: string; status: string; finding: string }>).find((step) => step.id === 'shutdown')!;
    expect(shutdown).toMatchObject({ status: 'warn', finding: expect.stringMatching(/^did not exit when its stdin closed; ended by SIGTERM \(\d+ ms\)$/) });
    const events = readTimedLog(log);
    expect(events.map(([event]) => event)).toEqual(['stdin-eof', 'SIGTERM']);
    expect(events[1]![1] - events[0]![1]).toBeGreaterThanOrEqual(950);
  });
});

describe('the real servers that ignore stdin EOF: exec exits promptly and leaves nothing running', () => {
  const backends = useBackends();

  /** Runs exec and measures from its result on stdout to its exit (the server's shutdown). */
  async function afterResult(entry: Record<string, unknown>, args: string[]) {
    const marker = newProcessMarker();
    const run = runToolrun(['--config', writeTempConfig({ mcpServers: { db: entry } }), 'exec', ...args], { env: marker.env });
    let printedAt: number | undefined;
    run.stdout!.on('data', () => (printedAt ??= Date.now()));
    const result = await run;
    const shutdownMs = Date.now() - (printedAt ?? Date.now());
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
    return { result, shutdownMs };
  }

  it('server-postgres after a query (its pool keeps a connection open)', async (context) => {
    if (!backends.postgres) return context.skip();
    const { result, shutdownMs } = await afterResult({ command: process.execPath, args: [POSTGRES_SERVER, backends.postgres.url] }, ['db:query', 'sql=select 41 + 1 as answer']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ answer: 42 }]);
    // Idle detection ends it ~250 ms after stdin closes on a quiet machine (npm run bench's 'exec: stdin
    // EOF to SIGTERM' holds that); on a loaded one a server queued for a CPU counts as busy and gets the
    // 1 s grace. How soon is a timing claim a loaded machine breaks: measured here, not asserted; that
    // nothing is left running is (afterResult).
    process.stderr.write(`[measure] exec, server-postgres: exited ${shutdownMs} ms after the result\n`);
  });

  it('server-redis after a get', async (context) => {
    if (!backends.redis) return context.skip();
    const { result, shutdownMs } = await afterResult({ command: process.execPath, args: [REDIS_SERVER, backends.redis.url] }, ['db:get', 'key=toolrun-none']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('Key not found: toolrun-none');
    process.stderr.write(`[measure] exec, server-redis: exited ${shutdownMs} ms after the result\n`);
  });
});
