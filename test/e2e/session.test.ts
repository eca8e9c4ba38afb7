import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { newProcessMarker, waitFor, waitForNoProcesses } from '../helpers/processes.js';
import { startPostgres, startRedis } from '../helpers/databases.js';
import { BIN, ROOT, runToolrun } from '../helpers/run-toolrun.js';
import { runEither, runInProcess } from '../helpers/run-in-process.js';
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
    const run = (args: string[], options: Parameters<typeof runToolrun>[1] = {}) => runEither(['--config', config, ...args], { ...options, env: { ...env, ...options.env } });
    stopAll = () => runInProcess(['session', 'stop', '--all'], { env });
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
    const run = (args: string[]) => runEither(['--config', config, ...args], { env });
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
    // Awake, it answers `session list` again: a connection made after the passed-over client's, so by
    // then it has read all that client sent (no fixed wait: a slow machine only makes this take longer).
    let holder: { servers: Array<{ name: string; calls: number }> } | undefined;
    while (!holder) holder = JSON.parse((await run(['--json', 'session', 'list'])).stdout).holders[0];
    // Only the cold run's server was called: the holder's server got no call.
    expect(holder.servers).toMatchObject([{ name: 'p', calls: 0 }]);
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
    // The holder of the old version is there, for the same file: said so, with how to refresh it.
    expect(result.stderr).toMatch(
      /session: the holder for .+toolrun\.config\.json \(pid \d+\) is stale: it was started for an older version of this config .*; starting servers here \(toolrun session stop, then toolrun session start, refreshes it\)/,
    );
  });

  it('two configs get two holders; two starts at once give one', async () => {
    const a = setup();
    const other = writeTempConfig({ mcpServers: { q: fixtureServer('pid-file-server.js') } });
    const [one, two] = await Promise.all([a.run(['--json', 'session', 'start']), a.run(['--json', 'session', 'start'])]);
    expect([one.exitCode, two.exitCode]).toEqual([0, 0]);
    expect(JSON.parse(one.stdout).pid).toBe(JSON.parse(two.stdout).pid);
    expect(a.starts()).toHaveLength(1);
    await runInProcess(['--config', other, 'session', 'start'], { env: a.env });
    const list = await runInProcess(['--json', 'session', 'list'], { env: a.env });
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

  // Issue #19 item 9: a held server that goes down is noticed, shown, and restarted on next use.
  it('a held server that crashed is shown as crashed with why, restarted on its next use, and the call runs through the holder', async () => {
    const { run, starts, marker } = setup();
    const start = JSON.parse((await run(['--json', 'session', 'start'])).stdout) as { servers: Array<{ pid: number }> };
    const serverPid = start.servers[0]!.pid;
    process.kill(serverPid, 'SIGKILL');
    await waitFor(() => !marker.alive().includes(serverPid));
    // The process is gone from /proc a moment before the holder reads its exit: asked until it has (a loaded machine lags).
    let list = await run(['session', 'list']);
    for (let tries = 0; tries < 40 && !list.stdout.includes('crashed'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      list = await run(['session', 'list']);
    }
    expect(list.stdout).toMatch(/p \(crashed: was killed by SIGKILL; restarted on next use\)/);
    const listed = JSON.parse((await run(['--json', 'session', 'list'])).stdout).holders[0].servers[0];
    expect(listed).toMatchObject({ name: 'p', status: 'crashed', reason: 'was killed by SIGKILL', restartsOnUse: true });
    const call = await run(['--verbose', 'exec', 'p:whoami']);
    expect(call.exitCode).toBe(0);
    expect(call.stderr).toMatch(/session: ran through the holder/);
    // The holder's restarted server answered (the second start), not a cold one.
    expect(starts()).toHaveLength(2);
    expect(call.stdout).toBe(starts()[1]);
    expect((await run(['session', 'list'])).stdout).toMatch(/p \(2 tools, 1 calls, restarted 1×\)/);
  });

  it('a held server that crashes again for the same cause is not restarted again: the call runs cold and -v says why', async () => {
    const { run } = setup({ crashy: fixtureServer('exit-mid-call-server.js') });
    expect((await run(['session', 'start', 'crashy'])).exitCode).toBe(0);
    const first = await run(['exec', 'crashy:work']);
    expect(first.exitCode).toBe(1);
    expect(first.stderr).toContain("MCP server 'crashy' exited with code 3 during the call to 'work'");
    const list = await run(['session', 'list']);
    expect(list.stdout).toContain('crashy (crashed: exited with code 3; its stderr: FATAL: out of widgets (widget pool exhausted); restarted on next use)');
    // Restarted (once), and it crashes the same way.
    const second = await run(['--verbose', 'exec', 'crashy:work']);
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toContain('session: ran through the holder');
    expect(second.stderr).toContain("MCP server 'crashy' exited with code 3 during the call to 'work'");
    // Same cause again: not restarted; the next call runs cold, and --verbose says why.
    const third = await run(['--verbose', 'exec', 'crashy:work']);
    expect(third.exitCode).toBe(1);
    expect(third.stderr).toMatch(
      /session: the holder's 'crashy' crashed: exited with code 3; its stderr: FATAL: out of widgets \(widget pool exhausted\) \(again, after a restart for the same cause: not restarted; toolrun session start crashy starts it afresh\); starting servers here/,
    );
    expect(JSON.parse((await run(['--json', 'session', 'list'])).stdout).holders[0].servers[0]).toMatchObject({ status: 'crashed', restartsOnUse: false, restarts: 1 });
  });

  it('server-postgres held while PostgreSQL is stopped: restarted by the holder, the query fails at once with its own error', async (context) => {
    const pg = await startPostgres();
    // startPostgres has said why on a `[skip]` line: reported as skipped, not as passed.
    if (!pg) return context.skip();
    try {
      const { env } = setup();
      const config = writeTempConfig({ mcpServers: { pg: { command: process.execPath, args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-postgres/dist/index.js'), pg.url] } } });
      const run = (args: string[]) => runEither(['--config', config, ...args], { env });
      expect((await run(['session', 'start'])).exitCode).toBe(0);
      expect((await run(['exec', 'pg:query', 'sql=select 1 as x'])).stdout).toContain('"x": 1');
      const firstPid = JSON.parse((await run(['--json', 'session', 'list'])).stdout).holders[0].servers[0].pid as number;
      await pg.stop();
      // Its pool's idle connection is cut: server-postgres crashes (an unhandled 'error' event).
      await waitFor(() =>
        /crashed/.test(
          readFileSync(
            join(
              env.XDG_RUNTIME_DIR,
              'toolrun',
              readdirSync(join(env.XDG_RUNTIME_DIR, 'toolrun')).find((file) => file.endsWith('.log'))!,
            ),
            'utf8',
          ),
        ),
      );
      expect((await run(['session', 'list'])).stdout).toMatch(/pg \(crashed: exited with code 1; its stderr: .+; restarted on next use\)/);
      const startedAt = Date.now();
      const warm = await run(['--verbose', 'exec', 'pg:query', 'sql=select 1 as x']);
      const warmMs = Date.now() - startedAt;
      expect(warm.exitCode).toBe(1);
      expect(warm.stderr).toContain('session: ran through the holder');
      expect(warm.stderr).toMatch(/✖ query: MCP error -32603: connect ECONNREFUSED 127\.0\.0\.1:\d+/);
      // The holder restarted it on this use (not a wait for the call's timeout): a new server, connected, that gave its own error.
      const servers = async () => JSON.parse((await run(['--json', 'session', 'list'])).stdout).holders[0].servers as Array<{ pid: number; status: string; restarts: number }>;
      const [restarted] = await servers();
      expect(restarted).toMatchObject({ status: 'connected', restarts: 1 });
      expect(restarted!.pid).not.toBe(firstPid);
      const coldStartedAt = Date.now();
      const cold = await run(['--no-session', 'exec', 'pg:query', 'sql=select 1 as x']);
      const coldMs = Date.now() - coldStartedAt;
      expect(cold.exitCode).toBe(1);
      // How long each took is npm run bench's question (no timing assertions here): said, not checked.
      process.stderr.write(`[measure] server-postgres, database stopped: warm (restart in the holder) ${warmMs} ms, cold ${coldMs} ms\n`);
    } finally {
      await pg.stop();
    }
  }, 60_000);

  it('server-redis held while Redis is stopped: the call ends with the connection-refused cause within a grace, not at its timeout', async (context) => {
    const redis = await startRedis();
    if (!redis) return context.skip();
    try {
      const { env } = setup();
      const config = writeTempConfig({
        // A timeout far past the test's own 60 s limit: the call ending at all shows the cause ended it, not the timeout.
        timeoutMs: 600_000,
        mcpServers: { r: { command: process.execPath, args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-redis/dist/index.js'), redis.url] } },
      });
      const run = (args: string[]) => runEither(['--config', config, ...args], { env });
      expect((await run(['session', 'start'])).exitCode).toBe(0);
      expect((await run(['exec', 'r:get', 'key=a'])).stdout).toBe('Key not found: a');
      await redis.stop();
      const startedAt = Date.now();
      const warm = await run(['exec', 'r:get', 'key=a']);
      const warmMs = Date.now() - startedAt;
      expect(warm.exitCode).toBe(1);
      expect(warm.stderr).toMatch(
        /✖ get: MCP server 'r': the server could not connect to 127\.0\.0\.1:\d+ \(connection refused: nothing listens there\) during the call to 'get' \(its stderr: .*ECONNREFUSED.*\); start the service/,
      );
      // Redis's client retries after 1 s, 2 s…; the cause line then gets a 1 s grace (~2-4 s here), said, not bounded.
      process.stderr.write(`[measure] server-redis, Redis stopped: warm call failed in ${warmMs} ms (its timeout: 600000 ms)\n`);
    } finally {
      await redis.stop();
    }
  }, 60_000);

  // Issue #19 item 14: a bad client cannot take the holder (or other clients' calls) down.
  it('a request that is not a JSON object gets an error reply on that connection; the holder and a call in flight go on', async () => {
    const { run, runtime, pidFile } = setup();
    await run(['session', 'start']);
    const dir = join(runtime, 'toolrun');
    const socketPath = join(
      dir,
      readdirSync(dir).find((file) => file.endsWith('.sock'))!,
    );
    const inFlight = run(['--json', 'exec', 'p:slow', 'ms:=600']);
    // The bad requests come once the held server has the call (it logs each call as it gets it).
    await waitFor(() => lines(`${pidFile}.calls`).includes('slow'));
    const replies = await new Promise<string[]>((resolve, reject) => {
      const socket = connect(socketPath);
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if (text.split('\n').filter(Boolean).length === 6) {
          socket.end();
          resolve(text.split('\n').filter(Boolean));
        }
      });
      socket.on('error', reject);
      socket.write('null\n42\n1e999\n[1,2]\n"op"\n{"id":7}\n');
    });
    expect(replies.map((line) => JSON.parse(line).error.message)).toEqual([
      'bad request: a request must be a JSON object, got null',
      'bad request: a request must be a JSON object, got number',
      'bad request: a request must be a JSON object, got number',
      'bad request: a request must be a JSON object, got an array',
      'bad request: a request must be a JSON object, got string',
      'bad request: no "op"',
    ]);
    expect(JSON.parse((await inFlight).stdout)).toMatchObject({ success: true, result: 'done' });
    expect((await run(['exec', 'p:whoami'])).exitCode).toBe(0);
  });

  it('a request line over the limit closes that connection only, without the holder reading it all into memory', async () => {
    const { run, runtime } = setup();
    const holderPid = JSON.parse((await run(['--json', 'session', 'start'])).stdout).pid as number;
    const dir = join(runtime, 'toolrun');
    const socketPath = join(
      dir,
      readdirSync(dir).find((file) => file.endsWith('.sock'))!,
    );
    const megabyte = Buffer.alloc(1024 * 1024, 'a');
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(socketPath);
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('error', () => {});
      socket.on('close', () => resolve(text));
      const writeMore = (left: number): void => {
        if (left === 0 || socket.destroyed) return;
        if (socket.write(megabyte)) setImmediate(() => writeMore(left - 1));
        else socket.once('drain', () => writeMore(left - 1));
      };
      writeMore(200);
    });
    expect(JSON.parse(reply)).toMatchObject({ ok: false, error: { message: 'bad request: a request line is limited to 100663296 bytes' } });
    const rssKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${holderPid}/status`, 'utf8'))![1]);
    expect(rssKb).toBeLessThan(400 * 1024);
    expect((await run(['exec', 'p:whoami'])).exitCode).toBe(0);
  }, 60_000);

  it('a stopped (SIGSTOP) holder is listed as hung, and session stop ends it and its servers', async () => {
    const { run, marker, runtime } = setup();
    const holderPid = JSON.parse((await run(['--json', 'session', 'start'])).stdout).pid as number;
    process.kill(holderPid, 'SIGSTOP');
    try {
      const list = await run(['session', 'list']);
      expect(list.stdout).toMatch(new RegExp(`toolrun\\.config\\.json +${holderPid} +\\? +\\? +\\? +\\(hung: stopped \\(SIGSTOP\\): it does not answer; toolrun session stop ends it\\)`));
      expect(JSON.parse((await run(['--json', 'session', 'list'])).stdout).holders).toEqual([expect.objectContaining({ pid: holderPid, hung: 'stopped (SIGSTOP): it does not answer' })]);
      const stop = await run(['session', 'stop']);
      expect(stop.exitCode).toBe(0);
      expect(stop.stdout).toMatch(new RegExp(`^ended the hung session holder \\(pid ${holderPid}\\) for .+toolrun\\.config\\.json with SIG(TERM|KILL), and its servers$`));
    } finally {
      try {
        process.kill(holderPid, 'SIGCONT');
      } catch {
        // ended
      }
    }
    expect(await waitForNoProcesses(marker.alive, 5000)).toEqual([]);
    expect(readdirSync(join(runtime, 'toolrun')).filter((file) => !file.endsWith('.log'))).toEqual([]);
  });

  // Issue #19 item 19: a session directory that is not this user's own is a setup problem (exit 3), said with its fix.
  it('a session directory planted by another user, or open to others, is refused with exit 3 naming what to do', async () => {
    const { run, runtime } = setup();
    const dir = join(runtime, 'toolrun');
    mkdirSync(dir, { mode: 0o700 });
    if (process.getuid?.() === 0) {
      chownSync(dir, 65534, 65534);
      for (const args of [
        ['session', 'list'],
        ['session', 'start'],
        ['session', 'stop'],
      ]) {
        const result = await run(args);
        expect(result.exitCode).toBe(3);
        expect(result.stderr).toContain(
          `the session directory ${dir} belongs to another user (uid 65534), so toolrun will not use it; remove it (rm -r ${dir}), or set XDG_RUNTIME_DIR to a directory of your own`,
        );
        expect(result.stderr).not.toContain('internal error');
      }
      chownSync(dir, 0, 0);
    } else process.stderr.write('[skip] planted by another uid: needs root to chown\n');
    chmodSync(dir, 0o755);
    const open = await run(['session', 'list']);
    expect(open.exitCode).toBe(3);
    expect(open.stderr).toContain(`the session directory ${dir} is open to other users (mode 755); run chmod 700 ${dir}, or remove it (rm -r ${dir})`);
  });

  // Issue #31 item 10: /tmp/toolrun-<uid> made first by another user; the sticky /tmp lets no one else remove it.
  it.skipIf(process.getuid?.() !== 0)('a squatted <tmp>/toolrun-<uid> gets advice that works: XDG_RUNTIME_DIR, which is then used', async () => {
    const { config, marker } = setup();
    const tmp = tempDir();
    chmodSync(tmp, 0o1777);
    const squatted = join(tmp, `toolrun-${process.getuid!()}`);
    mkdirSync(squatted, { mode: 0o700 });
    chownSync(squatted, 65534, 65534);
    const env = { ...marker.env, TMPDIR: tmp, XDG_RUNTIME_DIR: undefined };
    const refused = await runToolrun(['--config', config, 'session', 'list'], { env });
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toContain(`the session directory ${squatted} belongs to another user (uid 65534), so toolrun will not use it`);
    expect(refused.stderr).toContain('set XDG_RUNTIME_DIR to a directory of your own');
    // No 'rm': in a sticky folder only its owner (or root) can remove it.
    expect(refused.stderr).not.toContain(`rm -r ${squatted}`);
    const own = tempDir();
    const followed = await runToolrun(['--config', config, 'session', 'list'], { env: { ...env, XDG_RUNTIME_DIR: own } });
    expect(followed.exitCode, followed.stderr).toBe(0);
  });
});
