import { readFileSync, statSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { newProcessMarker, waitFor, waitForNoProcesses } from '../helpers/processes.js';
import { BIN, ROOT, runToolrun } from '../helpers/run-toolrun.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

// SPEC §12: a holder keeps a config's servers warm; exec goes through it; nothing outlives it.
describe('toolrun session', () => {
  let stopAll: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await stopAll?.();
    stopAll = undefined;
  });

  /** An isolated session directory, a marker for every process started, and a pid-file server config. */
  const setup = (extra: Record<string, unknown> = {}) => {
    const runtime = tempDir();
    const marker = newProcessMarker();
    const pidFile = join(tempDir(), 'pids');
    const config = writeTempConfig({ mcpServers: { p: fixtureServer('pid-file-server.js', { env: { PID_FILE: pidFile } }), ...extra } });
    const env = { XDG_RUNTIME_DIR: runtime, ...marker.env };
    const run = (args: string[], options: Parameters<typeof runToolrun>[1] = {}) => runToolrun(['--config', config, ...args], { ...options, env: { ...env, ...options.env } });
    stopAll = () => runToolrun(['session', 'stop', '--all'], { env });
    const starts = () => (existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim().split('\n').filter(Boolean) : []);
    return { runtime, marker, pidFile, config, env, run, starts };
  };

  it('start, exec through the holder (one server process for many calls), list, stop: nothing left running', async () => {
    const { run, starts, marker, runtime } = setup();
    const start = await run(['session', 'start']);
    expect(start.exitCode).toBe(0);
    expect(start.stdout).toMatch(/^✔ p: 2 tools, protocol 2025-11-25\nsession holder started \(pid \d+\) for .+; exits after 10m idle · toolrun session stop ends it$/);
    const first = await run(['--verbose', 'exec', 'p:whoami']);
    const second = await run(['exec', 'whoami']);
    expect(first.exitCode).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(starts()).toEqual([first.stdout]);
    expect(first.stderr).toMatch(/session: ran through the holder \(pid \d+\)/);
    // The server's stderr during a warm call reaches the caller (with --verbose, as cold).
    expect(first.stderr).toContain('[p] pid-file-server: whoami called');
    const list = await run(['--json', 'session', 'list']);
    expect(JSON.parse(list.stdout).holders).toEqual([expect.objectContaining({ servers: [expect.objectContaining({ name: 'p', status: 'connected', tools: 2, calls: 2 })] })]);
    const stop = await run(['session', 'stop']);
    expect(stop.stdout).toMatch(/^stopped the session holder \(pid \d+\) for .+ and its servers: p$/);
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
    expect(readdirSync(join(runtime, 'toolrun')).filter((file) => !file.endsWith('.log'))).toEqual([]);
  });

  it('list, time, resources and prompts use the holder too (no server started)', async () => {
    const { run, starts } = setup();
    await run(['session', 'start']);
    const list = await run(['--verbose', '--json', 'list', '--server', 'p']);
    expect(JSON.parse(list.stdout).tools.map((tool: { name: string }) => tool.name)).toEqual(['whoami', 'slow']);
    expect(list.stderr).toMatch(/session: p served by the holder \(pid \d+\)/);
    const time = await run(['--json', 'time', 'p:whoami', '-n', '20']);
    expect(JSON.parse(time.stdout)).toMatchObject({ phases: { session_ms: expect.any(Number) }, stats: { ok: 20, errors: 0 } });
    const prompts = await run(['--json', 'prompts']);
    expect(JSON.parse(prompts.stdout)).toEqual({ prompts: [] });
    expect(starts()).toHaveLength(1);
  });

  it('reads resources and gets prompts of server-everything through the holder', async () => {
    const { env } = setup();
    const config = writeTempConfig({ mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } });
    const run = (args: string[]) => runToolrun(['--config', config, ...args], { env });
    expect((await run(['session', 'start'])).exitCode).toBe(0);
    const read = await run(['--verbose', 'resources', 'read', 'demo://resource/static/document/architecture.md']);
    expect(read.stdout).toMatch(/^# Everything Server – Architecture/);
    expect(read.stderr).toMatch(/session: everything served by the holder/);
    expect(await run(['prompts', 'get', 'everything:args-prompt', 'city=Paris'])).toMatchObject({ exitCode: 0, stdout: "user:\nWhat's weather in Paris?" });
    const image = await run(['--json', 'exec', 'everything:get-tiny-image']);
    expect(JSON.parse(image.stdout)).toMatchObject({ success: true, server: 'everything' });
  });

  it('keeps the session directory private (0700) and the socket 0600', async () => {
    const { run, runtime } = setup();
    await run(['session', 'start']);
    const dir = join(runtime, 'toolrun');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const socket = readdirSync(dir).find((file) => file.endsWith('.sock'))!;
    expect(statSync(join(dir, socket)).mode & 0o777).toBe(0o600);
  });

  it('--no-session starts the server itself; --idle ends the holder and its servers', async () => {
    const { run, starts, marker } = setup();
    await run(['session', 'start', '--idle', '1s']);
    const cold = await run(['--no-session', 'exec', 'p:whoami']);
    expect(starts()).toHaveLength(2);
    expect(cold.stdout).toBe(starts()[1]);
    expect(await waitForNoProcesses(marker.alive, 8000)).toEqual([]);
  });

  it('a holder killed with SIGKILL leaves no server behind, even one that ignores stdin close and SIGTERM; the next exec is cold and correct', async () => {
    const { run, starts, marker, runtime } = setup({ stubborn: fixtureServer('ignore-sigterm-server.js') });
    const start = await run(['--json', 'session', 'start']);
    const holderPid = JSON.parse(start.stdout).pid as number;
    process.kill(holderPid, 'SIGKILL');
    expect(await waitForNoProcesses(marker.alive, 5000)).toEqual([]);
    const next = await run(['--verbose', 'exec', 'p:whoami']);
    expect(next.exitCode).toBe(0);
    expect(next.stdout).toBe(starts()[1]);
    expect(next.stderr).toMatch(/session: the holder for this config is gone/);
    // The dead holder's socket is cleaned up by the next look at the holders.
    expect((await run(['--json', 'session', 'list'])).stdout).toBe('{"holders":[]}');
    expect(readdirSync(join(runtime, 'toolrun')).filter((file) => file.endsWith('.sock'))).toEqual([]);
  });

  it('a hung holder (SIGSTOP) is passed over after 300 ms, and runs nothing when it wakes', async () => {
    const { run, starts, pidFile } = setup();
    const holderPid = JSON.parse((await run(['--json', 'session', 'start'])).stdout).pid as number;
    process.kill(holderPid, 'SIGSTOP');
    try {
      const result = await run(['--verbose', 'exec', 'p:whoami']);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(starts()[1]);
      expect(result.stderr).toContain('session: the holder for this config did not answer within 300 ms (hung?); starting servers here');
    } finally {
      process.kill(holderPid, 'SIGCONT');
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Only the cold run's server was called: the holder's server got no call.
    expect(lines(`${pidFile}.calls`)).toEqual(['whoami']);
  });

  it('SIGTERM to the holder ends it and its servers', async () => {
    const { run, marker } = setup();
    const holderPid = JSON.parse((await run(['--json', 'session', 'start'])).stdout).pid as number;
    process.kill(holderPid, 'SIGTERM');
    expect(await waitForNoProcesses(marker.alive, 5000)).toEqual([]);
    expect((await run(['--json', 'session', 'list'])).stdout).toBe('{"holders":[]}');
  });

  it('a changed config never uses the old holder', async () => {
    const { run, starts, config } = setup();
    await run(['session', 'start']);
    const text = readFileSync(config, 'utf8');
    writeFileSync(config, text.replace('"mcpServers"', '"timeoutMs": 20000, "mcpServers"'));
    const result = await run(['--verbose', 'exec', 'p:whoami']);
    expect(result.exitCode).toBe(0);
    expect(starts()).toHaveLength(2);
    expect(result.stderr).toContain('session: no holder for this config');
  });

  it('two configs get two holders; two starts at once give one', async () => {
    const a = setup();
    const other = writeTempConfig({ mcpServers: { q: fixtureServer('pid-file-server.js') } });
    const [one, two] = await Promise.all([a.run(['--json', 'session', 'start']), a.run(['--json', 'session', 'start'])]);
    expect([one.exitCode, two.exitCode]).toEqual([0, 0]);
    expect(JSON.parse(one.stdout).pid).toBe(JSON.parse(two.stdout).pid);
    expect(a.starts()).toHaveLength(1);
    await runToolrun(['--config', other, 'session', 'start'], { env: a.env });
    const list = await runToolrun(['--json', 'session', 'list'], { env: a.env });
    expect(
      JSON.parse(list.stdout)
        .holders.map((holder: { servers: Array<{ name: string }> }) => holder.servers[0]!.name)
        .sort(),
    ).toEqual(['p', 'q']);
  });

  it('serves 8 concurrent execs correctly', async () => {
    const { run, starts } = setup();
    await run(['session', 'start']);
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => run(['--json', 'exec', 'p:slow', `ms:=${20 + index * 5}`])));
    for (const result of results) expect(JSON.parse(result.stdout)).toMatchObject({ success: true, result: 'done', server: 'p' });
    expect(starts()).toHaveLength(1);
  });

  it('a timeout or Ctrl-C cancels that call on the server, not the holder', async () => {
    const { run, pidFile, env, config } = setup();
    await run(['session', 'start']);
    const timedOut = await run(['--timeout', '300', 'exec', 'p:slow', 'ms:=5000']);
    expect(timedOut.exitCode).toBe(1);
    expect(timedOut.stderr).toContain('timed out after 300 ms');
    const child = execa(process.execPath, [BIN, '--config', config, 'exec', 'p:slow', 'ms:=5000'], { reject: false, cwd: ROOT, env: { ...process.env, ...env } });
    // Interrupted once the holder's server is running the call.
    await waitFor(() => lines(`${pidFile}.calls`).length === 2);
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(130);
    await waitFor(() => lines(`${pidFile}.cancelled`).length === 2);
    const after = await run(['exec', 'p:whoami']);
    expect(after.exitCode).toBe(0);
  });
});
