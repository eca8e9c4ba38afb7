import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { FIXTURES } from '../helpers/run-toolrun.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

const localTools = join(FIXTURES, 'configs', 'local-tools.json');

describe('toolrun time', () => {
  it('times a local tool and prints the JSON report', async () => {
    const result = await runInProcess(['--json', 'time', 'get_current_datetime', '-n', '50', '--warmup', '3']);
    expect(result.exitCode).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ tool: 'get_current_datetime', source: 'builtin', phases: {}, iterations: 50, warmup: 3, concurrency: 1, errors: {}, budget_exceeded: false });
    expect(report.durations_ms).toHaveLength(50);
    expect(report.stats).toMatchObject({ count: 50, ok: 50, errors: 0 });
    for (const key of ['min', 'mean', 'p50', 'p90', 'p95', 'p99', 'max', 'stddev', 'calls_per_second']) expect(typeof report.stats[key]).toBe('number');
    expect(report.stats.min).toBeLessThanOrEqual(report.stats.p50);
    expect(report.stats.p99).toBeLessThanOrEqual(report.stats.max);
    // No progress indicator off a TTY: stderr stays empty.
    expect(result.stderr).toBe('');
  });

  it('prints a compact human report', async () => {
    const result = await runInProcess(['time', 'echo', 'a=1', '-n', '10']);
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('echo (builtin) · 10 calls after 2 warm-ups · concurrency 1');
    expect(lines[1]).toMatch(/^calls {4}10 ok · 0 errors · [\d.]+ calls\/s$/);
    expect(lines[2]).toMatch(/^latency {2}min [\d.]+ · p50 [\d.]+ · p90 [\d.]+ · p95 [\d.]+ · p99 [\d.]+ · max [\d.]+ · mean [\d.]+ · stddev [\d.]+ ms$/);
  });

  it('validates arguments once, before any call (exit 2)', async () => {
    const result = await runInProcess(['--config', localTools, 'time', 'set_level', 'level=5.5', 'action=on']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe("✖ Invalid parameters: 'level' must be integer");
  });

  it('exits 1 when calls fail, counting errors by message, unless --allow-errors', async () => {
    const failing = await runInProcess(['--json', '--config', localTools, 'time', 'lookup_user', 'id=9', '-n', '4', '--warmup', '0']);
    expect(failing.exitCode).toBe(1);
    expect(JSON.parse(failing.stdout)).toMatchObject({ stats: { count: 4, ok: 0, errors: 4 }, errors: { 'no user with id 9': 4 } });
    const allowed = await runInProcess(['--config', localTools, 'time', 'lookup_user', 'id=9', '-n', '2', '--allow-errors']);
    expect(allowed.exitCode).toBe(0);
    expect(allowed.stdout).toContain('error    2× no user with id 9');
  });

  it('exits 1 when p95 is over --max-p95', async () => {
    const result = await runInProcess(['time', 'get_current_datetime', '-n', '20', '--max-p95', '0.0000001']);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/budget {3}✖ p95 [\d.]+ ms exceeds --max-p95 1e-7 ms/);
  });

  it('overlaps calls with --concurrency on one connection, and reports the connect phases', async () => {
    const marker = newProcessMarker();
    // The one server process notes, as each call starts, how many it has in flight: what overlapped,
    // whatever the machine's speed (a wall-clock bound on the run was that machine's question).
    const inFlight = join(tempDir(), 'in-flight');
    const config = writeTempConfig({ mcpServers: { slow: fixtureServer('slow-tool-server.js', { env: { SLOW_IN_FLIGHT_FILE: inFlight } }) } });
    const result = await runInProcess(['--json', '--config', config, 'time', 'slow_tool', 'ms=300', '-n', '8', '--concurrency', '4', '--warmup', '0'], { env: marker.env });
    expect(result.exitCode).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.phases).toEqual({ spawn_ms: expect.any(Number), initialize_ms: expect.any(Number), tools_list_ms: expect.any(Number) });
    // 8 calls, 4 at a time on one connection: one server saw all 8, 4 in flight at once, never more.
    const counts = readFileSync(inFlight, 'utf8').trim().split('\n').map(Number);
    expect(counts).toHaveLength(8);
    expect(Math.max(...counts)).toBe(4);
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });

  it('rejects a bad -n', async () => {
    const result = await runInProcess(['time', 'echo', '-n', '0']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("option '-n, --iterations <count>' argument '0' is invalid. expected a positive whole number, got '0'");
  });
});
