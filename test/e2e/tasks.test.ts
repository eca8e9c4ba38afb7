import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newProcessMarker, runClean, waitFor, waitForNoProcesses } from '../helpers/processes.js';
import { runToolrun } from '../helpers/run-toolrun.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';

// Issue #22 point 3 (SPEC §15 Tasks): a task-augmented call is followed to its end in both eras
// (the 2025-11-25 experimental tasks, the 2026-07-28 io.modelcontextprotocol/tasks extension);
// --timeout and Ctrl-C cancel the task on the server; --no-wait prints its id; tasks get|cancel.

/** A tasks-server of each era, its tasks in one state file, every task request logged. */
function tasksConfig() {
  const dir = tempDir();
  const log = join(dir, 'tasks.log');
  const env = { TASKS_STATE: join(dir, 'state.json'), TASKS_LOG: log, STEP_MS: '60' };
  const config = writeTempConfig({
    mcpServers: { legacy: fixtureServer('tasks-server.js', { env }), modern: fixtureServer('tasks-server.js', { env: { ...env, ERA: 'modern' } }) },
  });
  // Complete lines only: the server may be writing the next one while the test reads.
  const received = (): Array<{ method: string; params: Record<string, unknown> }> =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .slice(0, -1)
          .map((line) => JSON.parse(line))
      : [];
  return { config, received };
}

const ERAS = ['legacy', 'modern'] as const;

describe.each(ERAS)('a task of a %s server', (era) => {
  it('is followed to its end: status lines on stderr, the result alone on stdout', async () => {
    const { config, received } = tasksConfig();
    const result = await runCleanInProcess(['--config', config, 'exec', `${era}:research`, 'topic=tides', 'steps:=3']);
    expect(result.stderr).not.toMatch(/✖/);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'researched tides' });
    expect(result.stderr).toMatch(/^… research: task [0-9a-f-]{36} working — step 1 of 3$/m);
    expect(result.stderr).toMatch(/^… research: task [0-9a-f-]{36} completed$/m);
    const methods = received().map((entry) => entry.method);
    expect(methods[0]).toBe('tools/call');
    expect(methods).toContain('tasks/get');
    expect(methods).not.toContain('tasks/cancel');
    if (era === 'legacy') expect(received()[0]!.params.task).toEqual({ ttl: expect.any(Number) });
  });

  it('--json gives the envelope of the final result', async () => {
    const { config } = tasksConfig();
    const result = await runCleanInProcess(['--config', config, '--json', 'exec', `${era}:research`, 'topic=tides', 'steps:=1']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true, result: 'researched tides', tool_name: 'research', server: era });
  });

  it('a failed task is exit 1 naming the task and the reason', async () => {
    const { config } = tasksConfig();
    const result = await runCleanInProcess(['--config', config, 'exec', `${era}:fails`]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n').at(-1)).toMatch(/^✖ fails: task [0-9a-f-]{36} failed: the backend refused the job$/);
  });

  it('--timeout cancels a task that never ends on the server, in one line, nothing left running', async () => {
    const { config, received } = tasksConfig();
    // A task that never ends: without the timeout this would hang past the test's own limit.
    const result = await runCleanInProcess(['--config', config, '--timeout', '400', 'exec', `${era}:never_ends`]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(
      /^✖ never_ends: Tool 'never_ends' timed out after 400 ms; its task [0-9a-f-]{36} \(still working\) was cancelled on the server \(raise it with --timeout or timeoutMs\)$/,
    );
    const taskId = /task ([0-9a-f-]{36})/.exec(lines.at(-1)!)![1];
    expect(received().filter((entry) => entry.method === 'tasks/cancel')).toEqual([{ method: 'tasks/cancel', params: expect.objectContaining({ taskId }) }]);
  });

  it('Ctrl-C cancels the task on the server and exits 130, nothing left running', async () => {
    const { config, received } = tasksConfig();
    const marker = newProcessMarker();
    const run = runToolrun(['--config', config, 'exec', `${era}:never_ends`], { env: marker.env });
    await waitFor(() => received().some((entry) => entry.method === 'tasks/get'));
    run.kill('SIGINT');
    const result = await run;
    expect(result.exitCode).toBe(130);
    expect(result.stdout).toBe('');
    expect(received().filter((entry) => entry.method === 'tasks/cancel')).toHaveLength(1);
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });

  it('--no-wait prints the task id; tasks get shows it, then its result; tasks cancel cancels one', async () => {
    const { config, received } = tasksConfig();
    const started = await runCleanInProcess(['--config', config, 'exec', '--no-wait', `${era}:research`, 'topic=tides', 'steps:=2']);
    expect(started.exitCode).toBe(0);
    expect(started.stdout).toMatch(/^[0-9a-f-]{36}$/);
    const taskId = started.stdout;
    const json = await runCleanInProcess(['--config', config, '--json', 'exec', '--no-wait', `${era}:never_ends`]);
    expect(json.exitCode).toBe(0);
    const envelope = JSON.parse(json.stdout);
    expect(envelope).toMatchObject({ success: true, result: { taskId: expect.any(String), status: 'working', server: era } });

    // Until the task says it is done (its two steps take ~100 ms on a quiet machine, more on a busy one), not a fixed 250 ms.
    const status = async () => JSON.parse((await runCleanInProcess(['--config', config, '--json', 'tasks', 'get', taskId, '--server', era])).stdout).status as string;
    for (let tries = 0; tries < 100 && (await status()) === 'working'; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    const done = await runCleanInProcess(['--config', config, 'tasks', 'get', taskId, '--server', era]);
    expect(done).toMatchObject({ exitCode: 0, stdout: 'researched tides' });
    expect(done.stderr).toContain(`task ${taskId} completed`);
    const doneJson = await runCleanInProcess(['--config', config, '--json', 'tasks', 'get', taskId, '--server', era]);
    expect(JSON.parse(doneJson.stdout)).toMatchObject({ taskId, status: 'completed', server: era, result: { content: [{ type: 'text', text: 'researched tides' }] } });

    const endless = envelope.result.taskId as string;
    const working = await runCleanInProcess(['--config', config, 'tasks', 'get', endless, '--server', era]);
    expect(working).toMatchObject({ exitCode: 0, stdout: `${endless} working — still working` });
    const cancelled = await runCleanInProcess(['--config', config, 'tasks', 'cancel', endless, '--server', era]);
    expect(cancelled).toMatchObject({ exitCode: 0, stdout: `${endless} cancelled` });
    expect(
      received()
        .filter((entry) => entry.method === 'tasks/cancel')
        .map((entry) => entry.params.taskId),
    ).toEqual([endless]);
    const again = await runCleanInProcess(['--config', config, 'tasks', 'cancel', endless, '--server', era]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr.trim()).toBe(`✖ MCP server '${era}' failed tasks/cancel for '${endless}': Cannot cancel task: already in terminal status 'cancelled'`);
  });

  it('tasks get of an unknown id is exit 2 (as an unknown tool), one line', async () => {
    const { config } = tasksConfig();
    const result = await runCleanInProcess(['--config', config, 'tasks', 'get', 'no-such-task', '--server', era]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe(`✖ MCP server '${era}' answered tasks/get for 'no-such-task': Failed to retrieve task: Task not found`);
  });
});

describe('task options', () => {
  it('--task runs an optional-task tool as a task; without it the call is plain', async () => {
    const { config, received } = tasksConfig();
    const plain = await runCleanInProcess(['--config', config, 'exec', 'legacy:maybe_task']);
    expect(plain).toMatchObject({ exitCode: 0, stdout: 'ran without a task' });
    const asTask = await runCleanInProcess(['--config', config, 'exec', '--task', 'legacy:maybe_task']);
    expect(asTask).toMatchObject({ exitCode: 0, stdout: 'ran as a task' });
    expect(
      received()
        .filter((entry) => entry.method === 'tools/call')
        .map((entry) => entry.params.task !== undefined),
    ).toEqual([false, true]);
  });

  it('--task on a tool that does not run as a task is a usage error naming why', async () => {
    const { config, received } = tasksConfig();
    const result = await runCleanInProcess(['--config', config, 'exec', '--no-wait', 'legacy:plain']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe("✖ plain: Tool 'plain' of MCP server 'legacy' does not run as a task (no execution.taskSupport); run it without --task/--no-wait");
    expect(received()).toEqual([]);
  });

  it('tasks needs --server and an id', async () => {
    const { config } = tasksConfig();
    const result = await runInProcess(['--config', config, 'tasks', 'get', 'abc']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("required option '--server <name>' not specified");
  });
});

describe('server-everything', () => {
  it('simulate-research-query is followed through its stages to its report', async () => {
    const config = writeTempConfig({ mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } });
    const result = await runClean(['--config', config, 'exec', 'everything:simulate-research-query', 'topic=tides'], { timeout: 20_000 });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^# Research Report: tides$/m);
    expect(result.stderr).toMatch(/^… simulate-research-query: task \S+ working — Gathering sources\.\.\.$/m);
    expect(result.stderr).toMatch(/^… simulate-research-query: task \S+ completed( — .*)?$/m);
  }, 20_000);
});

// Issue #32, dead end 4: server-everything over Streamable HTTP keeps its tasks in the MCP session.
describe('server-everything over Streamable HTTP', () => {
  it('exec --no-wait keeps the session on a holder, so tasks get reaches the task and its result', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const server = spawn(process.execPath, [SERVER_EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    const marker = newProcessMarker();
    const env = { XDG_RUNTIME_DIR: tempDir(), XDG_STATE_HOME: tempDir(), XDG_CACHE_HOME: tempDir(), ...marker.env };
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('server-everything over HTTP did not start')), 15_000);
        server.stderr!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('listening on port')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const config = writeTempConfig({ mcpServers: { remote: { url: `http://127.0.0.1:${port}/mcp` } } });
      const started = await runInProcess(['--config', config, 'exec', '--no-wait', 'remote:simulate-research-query', 'topic=tides'], { env });
      expect(started.exitCode).toBe(0);
      expect(started.stdout).toMatch(/^\S+$/);
      expect(started.stderr).toMatch(/session holder/);
      const taskId = started.stdout;
      let got = await runInProcess(['--config', config, 'tasks', 'get', taskId, '--server', 'remote'], { env });
      for (let tries = 0; tries < 40 && got.exitCode === 0 && !/completed/.test(got.stderr); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        got = await runInProcess(['--config', config, 'tasks', 'get', taskId, '--server', 'remote'], { env });
      }
      expect(got.exitCode).toBe(0);
      expect(got.stdout).toMatch(/^# Research Report: tides$/m);
    } finally {
      await runInProcess(['session', 'stop', '--all'], { env });
      server.kill('SIGKILL');
    }
    expect(await waitForNoProcesses(marker.alive, 10_000)).toEqual([]);
  }, 60_000);
});
