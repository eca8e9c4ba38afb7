import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CliContext } from '../cli-support/cli-context.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { ExitCode } from '../errors.js';
import { isProcessAlive } from '../process/process-tree.js';
import { formatConnectFailure } from '../output/format-connect-failure.js';
import { formatTable } from '../output/format-tool-list.js';
import { HolderClient } from './holder-client.js';
import { tryUnlink } from './holder-lock.js';
import type { HeldServerStatus, HolderStatus } from './holder-protocol.js';
import { formatDuration } from './parse-duration.js';
import type { HolderReady } from './run-holder.js';
import { sessionKey } from './session-key.js';
import { existingSessionDirectory, sessionDirectory, sessionFiles } from './session-paths.js';
import { startHolder } from './start-holder.js';
import { endHungHolder, hungHolderStatus } from './hung-holder.js';

/** `session start`: a holder for this config (started, or the running one asked to hold these servers too). */
export async function startSession(cli: CliContext, config: ToolrunConfig, servers: string[], idleMs: number): Promise<number> {
  const dir = sessionDirectory(cli.env);
  const key = sessionKey(config, cli.env);
  const files = sessionFiles(dir, key);
  let ready: HolderReady;
  let running: HolderClient | undefined;
  try {
    running = existsSync(files.socket) ? await HolderClient.connect(files.socket) : undefined;
  } catch {
    running = undefined;
  }
  if (running) {
    const reply = await running.request('add', { servers: servers.length > 0 ? servers : Object.keys(config.servers) }, { signal: cli.signal });
    running.close();
    ready = { status: reply.status as HolderStatus, failures: reply.failures as HolderReady['failures'], joined: true };
  } else {
    ready = await startHolderFor(cli, config, { servers, idleMs, dir, key });
  }
  const connected = ready.status.servers.filter((server) => server.status === 'connected');
  // A holder with no live server is no use: it is stopped, and the failures say why.
  if (connected.length === 0) await stopHolderAt(files.socket, ready.status.pid, []);
  if (cli.globals.json) {
    await cli.terminal.resultJson({
      started: connected.length > 0,
      already_running: ready.joined === true,
      pid: ready.status.pid,
      config: ready.status.config,
      idle_timeout_ms: ready.status.idleTimeoutMs,
      servers: ready.status.servers,
      failures: ready.failures.map((failure) => ({ server: failure.server, reason: failure.reason })),
    });
  } else {
    for (const failure of ready.failures) cli.terminal.note(formatConnectFailure(failure, cli.terminal.errStyle));
    const lines = ready.status.servers.map((server) =>
      server.status === 'connected' ? `✔ ${server.name}: ${server.tools} tool${server.tools === 1 ? '' : 's'}, protocol ${server.protocol}` : `✖ ${server.name}: ${server.reason}`,
    );
    if (connected.length > 0)
      lines.push(
        `session holder ${ready.joined ? 'already running' : 'started'} (pid ${ready.status.pid}) for ${ready.status.config}; exits after ${formatDuration(ready.status.idleTimeoutMs)} idle · toolrun session stop ends it`,
      );
    await cli.terminal.result(lines.join('\n'));
  }
  return ready.failures.length > 0 || connected.length === 0 ? ExitCode.UNREACHABLE : ExitCode.OK;
}

/** `session list`: every live holder of this user (a socket nobody answers on is cleaned up). */
export async function listSessions(cli: CliContext): Promise<number> {
  const holders = await liveHolders(cli.env);
  if (cli.globals.json) {
    await cli.terminal.resultJson({ holders: holders.map(({ status }) => status) });
    return ExitCode.OK;
  }
  if (holders.length === 0) {
    cli.terminal.info('no session holders (toolrun session start keeps servers warm)');
    return ExitCode.OK;
  }
  const now = Date.now();
  const rows = holders.map(({ status }) => [
    status.config ?? '(default)',
    String(status.pid),
    status.hung ? '?' : formatDuration(now - Date.parse(status.startedAt)),
    status.hung ? '?' : formatDuration(status.idleMs),
    status.hung ? '?' : String(status.requests),
    status.hung ? `(hung: ${status.hung}; toolrun session stop ends it)` : status.servers.map(describeHeldServer).join(', '),
  ]);
  await cli.terminal.result(formatTable(['CONFIG', 'PID', 'UPTIME', 'IDLE', 'REQUESTS', 'SERVERS'], rows, cli.terminal.stdout.isTTY ? cli.terminal.stdout.columns : undefined));
  return ExitCode.OK;
}

/** One server in `session list`: what it is doing, or how it went down and what the holder does about it. */
function describeHeldServer(server: HeldServerStatus): string {
  const restarted = server.restarts ? `, restarted ${server.restarts}×` : '';
  if (server.status === 'connected') return `${server.name} (${server.tools} tools, ${server.calls} calls${restarted})`;
  if (server.status === 'crashed') return `${server.name} (crashed: ${server.reason}${server.restartsOnUse ? '; restarted on next use' : ''})`;
  return `${server.name} (failed: ${server.reason})`;
}

/** `session stop`: this config's holder (or some of its servers), or with no config every holder. */
export async function stopSessions(cli: CliContext, config: ToolrunConfig | undefined, servers: string[]): Promise<number> {
  const targets = config ? await holdersFor(cli.env, sessionKey(config, cli.env)) : await liveHolders(cli.env);
  if (targets.length === 0) {
    if (cli.globals.json) await cli.terminal.resultJson({ stopped: [] });
    else cli.terminal.info(config ? 'no session holder for this config' : 'no session holders');
    return ExitCode.OK;
  }
  const stopped: Array<{ pid: number; config: string | null; servers: string[]; holder_exited: boolean; hung?: true; signal?: string }> = [];
  for (const { socket, status } of targets) {
    if (status.hung) {
      // It cannot be asked: ended by signal (servers and all: its own shutdown, or its reaper).
      const signal = await endHungHolder(status.pid);
      for (const file of [socket, socket.replace(/\.sock$/, '.lock')]) tryUnlink(file);
      stopped.push({ pid: status.pid, config: status.config, servers: [], holder_exited: true, hung: true, signal });
      continue;
    }
    const outcome = await stopHolderAt(socket, status.pid, servers);
    stopped.push({ pid: status.pid, config: status.config, servers: outcome.stopped, holder_exited: outcome.holderExits });
  }
  if (cli.globals.json) await cli.terminal.resultJson({ stopped });
  else
    await cli.terminal.result(
      stopped
        .map((holder) =>
          holder.hung
            ? `ended the hung session holder (pid ${holder.pid}) for ${holder.config ?? '(default)'} with ${holder.signal}, and its servers`
            : holder.holder_exited
              ? `stopped the session holder (pid ${holder.pid}) for ${holder.config} and its servers: ${holder.servers.join(', ') || 'none'}`
              : `stopped ${holder.servers.join(', ')} in the session holder (pid ${holder.pid})`,
        )
        .join('\n'),
    );
  return ExitCode.OK;
}

/** Asks a holder to stop (some servers, or all) and, when it exits, waits until it has: nothing is left running. */
export async function stopHolderAt(socket: string, pid: number, servers: string[]): Promise<{ stopped: string[]; holderExits: boolean }> {
  const client = await HolderClient.connect(socket);
  try {
    const reply = await client.request('stop', { servers });
    const outcome = { stopped: reply.stopped as string[], holderExits: reply.holderExits === true };
    if (outcome.holderExits) {
      const deadline = Date.now() + 15_000;
      while (isProcessAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return outcome;
  } finally {
    client.close();
  }
}

async function holdersFor(env: NodeJS.ProcessEnv, key: string): Promise<Array<{ socket: string; status: HolderStatus }>> {
  return (await liveHolders(env)).filter(({ socket }) => socket.endsWith(`${key}.sock`));
}

/** Every holder that answers; sockets (and locks) of dead ones are removed. */
async function liveHolders(env: NodeJS.ProcessEnv): Promise<Array<{ socket: string; status: HolderStatus }>> {
  const dir = existingSessionDirectory(env);
  if (!dir) return [];
  const sockets = readdirSync(dir).filter((file) => file.endsWith('.sock'));
  const found = await Promise.all(
    sockets.map(async (file) => {
      const socket = join(dir, file);
      try {
        const client = await HolderClient.connect(socket);
        const answer = client.request('status');
        answer.catch(() => {});
        const reply = await Promise.race([answer, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000).unref())]);
        client.close();
        if (reply) return [{ socket, status: reply.status as HolderStatus }];
        // Accepts but does not answer: shown as hung (session stop ends it), not left out.
        const hung = hungHolderStatus(socket);
        return hung ? [{ socket, status: hung }] : [];
      } catch (error) {
        // Nobody listens: the holder died without cleaning up (its lock is taken over by the next one).
        if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED') tryUnlink(socket);
        return [];
      }
    }),
  );
  return found.flat();
}

/**
 * Starts this config's holder with the command line's settings (`session start`, `shell`). A
 * `--root` that is no folder, or any other bad ask-back flag, is said first, before a holder starts.
 */
export async function startHolderFor(cli: CliContext, config: ToolrunConfig, where: { servers: string[]; idleMs: number; dir: string; key: string }): Promise<HolderReady> {
  (await import('../cli-support/ask-back-for.js')).askBackFor(cli);
  return startHolder({
    configPath: config.path!,
    host: cli.globals.host,
    terminalEnv: cli.globals.terminalEnv,
    protocol: config.protocolFlag,
    askBack: cli.globals.askBack,
    env: cli.env,
    cwd: cli.cwd,
    signal: cli.signal,
    ...where,
  });
}
