import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { isProcessGroupAlive, killServerNow, signalProcessGroup, trackServer, untrackServer, type LiveServer } from '../mcp/process-group.js';
import { SERVER_MARKER_VARIABLE } from '../mcp/process-tree.js';

/** A stdio server started for `mcp tap` or `mcp replay`: its process, its exit, and the polite end. */
export interface SpawnedServer {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the exit code (128 + signal number when signalled; 127 when it could not start). */
  exited: Promise<number>;
  spawnError?: Error;
  /** stdin closed, then SIGTERM, then SIGKILL (GRACE_MS apart), its descendants too. Once. */
  shutdown(): Promise<void>;
  /** After exit: ends whatever it left in its group, and forgets it. */
  release(): void;
}

const GRACE_MS = 2000;
const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/**
 * Spawns a server as the leader of its own process group, with toolrun's marker in its environment
 * (so descendants that left the group are found), tracked so that it never outlives toolrun.
 */
export function spawnServer(target: { command: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv }): SpawnedServer {
  const marker = randomUUID();
  const child = spawn(target.command, target.args, { cwd: target.cwd, env: { ...target.env, [SERVER_MARKER_VARIABLE]: marker }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  child.stdin.on('error', () => {});
  const server: SpawnedServer = {
    child,
    exited: new Promise<number>((resolve) => {
      child.once('error', (error) => {
        server.spawnError = error;
        resolve(127);
      });
      child.once('close', (code, signal) => resolve(code ?? 128 + (SIGNAL_NUMBERS[signal ?? ''] ?? 1)));
    }),
    shutdown: () => (stopping ??= stop()),
    release: () => {
      if (!live) return;
      if (isProcessGroupAlive(live.pid)) killServerNow(live);
      untrackServer(live);
    },
  };
  let stopping: Promise<void> | undefined;
  const live: LiveServer | undefined = child.pid === undefined ? undefined : { pid: child.pid, marker, shutdown: () => server.shutdown() };
  if (live) trackServer(live);
  const stop = async () => {
    child.stdin.end();
    if (!live || (await exitsWithin(server.exited, GRACE_MS))) return;
    signalProcessGroup(live.pid, 'SIGTERM');
    if (await exitsWithin(server.exited, GRACE_MS)) return;
    killServerNow(live);
  };
  return server;
}

async function exitsWithin(exited: Promise<number>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const done = await Promise.race([exited.then(() => true as const), timeout]);
  clearTimeout(timer);
  return done;
}
