import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { execa } from 'execa';
import { ToolrunError } from '../errors.js';
import type { ExitInfo, ShutdownOutcome } from './exit-info.js';
import { DESCRIPTORS_PER_SPAWN, openFileDescriptors } from './parallel-starts.js';
import { killServerNow, signalProcessGroup, trackServer, untrackServer, type LiveServer } from './process-group.js';
import { findServerProcesses, findServerTree, SERVER_MARKER_VARIABLE, signalProcess, startTicksOf, type ProcessInfo } from './process-tree.js';
import { endLeftovers, exitsUnlessIdle, exitsWithin } from './shutdown-steps.js';
import { watchDescendants } from './descendant-watch.js';

export interface ServerProcessOptions {
  command: string;
  args: string[];
  cwd: string;
  /** The full environment of the child: the parent's plus the server's own entries. */
  env: NodeJS.ProcessEnv;
  /** How long to wait after closing stdin, and after SIGTERM, before the next step (1000 ms). */
  shutdownGraceMs?: number;
  /**
   * After stdin closes: 'full' waits the whole grace (a server run for someone else, doctor judging
   * the server); 'while-busy' stops waiting once the server sits idle (shutdown-steps.ts
   * exitsUnlessIdle: toolrun's own sessions, so exec does not wait a second on a server that ignores EOF).
   */
  stdinCloseWait?: 'full' | 'while-busy';
  /** Called when a shutdown starts (before stdin is closed) and once it is complete. */
  shutdownHooks?: { before?: () => void; after?: () => void };
  /**
   * Note its descendants while it runs (descendant-watch.ts): for a process that exits by itself
   * (a --sampling-command), whose orphaned helpers its shutdown could not find by parent pid.
   */
  watchDescendants?: boolean;
}

/** The server could not be started at all: `code` is the system's (ENOENT, EACCES), or ENOCWD / EMFILE. */
export class SpawnError extends ToolrunError {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly command?: string,
  ) {
    super('unreachable', message);
    this.name = 'SpawnError';
  }
}

/** How long to wait for a dead server's pipes to close: a helper may hold them open forever. */
const DRAIN_MS = 200;

/**
 * The grace between the shutdown steps for a server toolrun runs for someone else (a host's, through
 * `mcp tap`; a replayed one): longer than its own sessions get, as the server may be saving state.
 */
export const PATIENT_GRACE_MS = 2000;

/**
 * A server process as toolrun runs it, whatever speaks over its pipes (an MCP session, `mcp tap`,
 * `mcp replay`): the leader of its own process group, with a marker in its environment that its
 * descendants inherit (so they are found even once they left the group), tracked so that it never
 * outlives toolrun, and ended by one ladder — stdin closed, SIGTERM, SIGKILL, then whatever it left
 * running. Its three pipes are raw byte streams; reading them is the caller's business.
 */
export class ServerProcess {
  readonly pid: number;
  readonly marker: string;
  /** When it started (clock ticks since boot), where /proc tells: its marker's scans skip older processes. */
  readonly startTicks: number | undefined;
  readonly spawnedAt: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Resolves when the process exits ('exit', not 'close': a helper may hold its pipes open long after). */
  readonly exited: Promise<ExitInfo>;
  /** Set once it exited. */
  exitInfo: ExitInfo | undefined;
  /** Processes of the server still running after it exited, which toolrun then ended (SPEC §8). */
  leftBehind: ProcessInfo[] = [];
  readonly #child: ChildProcess;
  readonly #options: ServerProcessOptions;
  readonly #live: LiveServer;
  readonly #streamsClosed: Promise<void>;
  readonly #watch: ReturnType<typeof watchDescendants> | undefined;
  #shutdown: Promise<ShutdownOutcome> | undefined;

  private constructor(child: ChildProcess, marker: string, exited: Promise<ExitInfo>, options: ServerProcessOptions) {
    this.#child = child;
    this.#options = options;
    this.pid = child.pid!;
    this.marker = marker;
    this.startTicks = startTicksOf(this.pid);
    this.spawnedAt = performance.now();
    this.stdin = child.stdin!;
    this.stdout = child.stdout!;
    this.stderr = child.stderr!;
    this.exited = exited.then((info) => (this.exitInfo = info));
    this.#streamsClosed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    // A server that exits while something is written gives EPIPE: that is its exit, reported as such.
    this.stdin.on('error', () => {});
    this.#live = { pid: this.pid, marker, startTicks: this.startTicks, shutdown: () => this.shutdown() };
    trackServer(this.#live);
    this.#watch = options.watchDescendants ? watchDescendants(this.pid) : undefined;
    // Once it exited, its helpers are orphans that no scan by parent pid finds: what was seen is kept.
    void this.exited.then(() => this.#watch?.stop());
  }

  /** Spawns the server; rejects with a SpawnError saying why it could not start. */
  static async start(options: ServerProcessOptions): Promise<ServerProcess> {
    const { command, args, cwd, env } = options;
    // spawn reports a missing cwd as ENOENT of the command, which would send the user looking for the wrong thing.
    if (!existsSync(cwd)) throw new SpawnError(`working directory does not exist: ${cwd}`, 'ENOCWD', command);
    const descriptors = openFileDescriptors();
    if (descriptors && descriptors.inUse + DESCRIPTORS_PER_SPAWN > descriptors.limit) {
      throw new SpawnError(
        `too many open files to start another server (${descriptors.inUse} of ${descriptors.limit} in use): raise the limit (ulimit -n 4096) or start fewer servers (--server NAME)`,
        'EMFILE',
        command,
      );
    }
    const marker = randomUUID();
    const child = execa(command, args, {
      cwd,
      env: { ...env, [SERVER_MARKER_VARIABLE]: marker },
      extendEnv: false,
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
      buffer: false,
      reject: false,
      detached: true,
      cleanup: false,
      windowsHide: true,
    });
    const exited = new Promise<ExitInfo>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', () => resolve({ code: null, signal: null }));
    });
    // execa's own promise settles with the same outcome; it must not be left unhandled.
    void child.catch(() => {});
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error: NodeJS.ErrnoException) => reject(new SpawnError(describeSpawnError(error, command), error.code, command)));
    });
    return new ServerProcess(child, marker, exited, options);
  }

  /** True once a shutdown started (toolrun is ending it: its exit is not news). */
  get stopping(): boolean {
    return this.#shutdown !== undefined;
  }

  /**
   * Resolves once the process exited and its stdout and stderr were read to the end — or DRAIN_MS
   * after its exit, when a helper it started holds them open.
   */
  async drained(): Promise<void> {
    await this.exited;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.#streamsClosed, new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_MS)))]);
    clearTimeout(timer);
  }

  /**
   * Ends the server and everything it started (SPEC §8): stdin closed, then SIGTERM, then SIGKILL,
   * each after the grace period; then any of its processes still running after it (a `setsid()`
   * helper) is recorded in `leftBehind` and ended the same way. `graceMs` overrides the configured
   * grace: a server that already misbehaved gets less patience. Safe to call more than once; after
   * the server exited by itself it still ends what it left behind.
   */
  shutdown(graceMs?: number): Promise<ShutdownOutcome> {
    this.#shutdown ??= this.#runShutdown(graceMs ?? this.#options.shutdownGraceMs ?? 1000);
    return this.#shutdown;
  }

  async #runShutdown(grace: number): Promise<ShutdownOutcome> {
    this.#options.shutdownHooks?.before?.();
    const pid = this.pid;
    // Taken while the server still runs: once it exits, its helpers' parent is init (what was
    // watched while it ran covers a process that exited by itself). By parent pid only, while the
    // server may still exit on its own: the pass over every process of the machine (the marker finds
    // a helper already orphaned) is made after its exit, and also before signals when they are needed.
    this.#watch?.stop();
    let family = mergeFamilies(findServerTree(pid), this.#watch?.seen() ?? []);
    let outcome: ShutdownOutcome = 'already-exited';
    if (!this.exitInfo) {
      this.#child.stdin?.end();
      const exitedByItself =
        this.#options.stdinCloseWait === 'while-busy'
          ? await exitsUnlessIdle(
              this.exited,
              pid,
              family.map((member) => member.pid),
              grace,
            )
          : await exitsWithin(this.exited, grace);
      if (exitedByItself) outcome = 'stdin-closed';
      else {
        // A helper already orphaned (a double fork into a session of its own) gets its SIGTERM with the server.
        family = mergeFamilies(findServerProcesses(pid, this.marker, this.startTicks), family);
        signalProcessGroup(pid, 'SIGTERM');
        for (const member of family) if (member.pgid !== pid) signalProcess(member.pid, 'SIGTERM');
        if (await exitsWithin(this.exited, grace)) outcome = 'SIGTERM';
        else {
          killServerNow({ pid, marker: this.marker, startTicks: this.startTicks });
          await this.exited;
          outcome = 'SIGKILL';
        }
      }
    }
    this.leftBehind = await endLeftovers({ pid, marker: this.marker, startTicks: this.startTicks }, family, grace);
    // Every stdout line is read before the shutdown counts as done (doctor scans them next).
    await this.drained();
    untrackServer(this.#live);
    this.#options.shutdownHooks?.after?.();
    return outcome;
  }
}

function mergeFamilies(found: ProcessInfo[], seen: ProcessInfo[]): ProcessInfo[] {
  const pids = new Set(found.map((member) => member.pid));
  return [...found, ...seen.filter((member) => !pids.has(member.pid))];
}

function describeSpawnError(error: NodeJS.ErrnoException, command: string): string {
  if (error.code === 'ENOENT') return `command not found: '${command}' (not on PATH, or the file does not exist)`;
  if (error.code === 'EACCES') return `command not executable: '${command}' (permission denied; chmod +x it?)`;
  return `could not start '${command}': ${error.message}`;
}
