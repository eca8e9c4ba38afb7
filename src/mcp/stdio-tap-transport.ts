import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { execa } from 'execa';
import type { CauseContext } from './failure-causes.js';
import { LineSplitter, type RawLine } from './line-splitter.js';
import { PendingRequests } from './pending-requests.js';
import { DESCRIPTORS_PER_SPAWN, openFileDescriptors } from './parallel-starts.js';
import { killServerNow, signalProcessGroup, trackServer, untrackServer, type LiveServer } from './process-group.js';
import { endLeftovers, exitsWithin } from './shutdown-steps.js';
import { findServerProcesses, SERVER_MARKER_VARIABLE, signalProcess, type ProcessInfo } from './process-tree.js';
import { StderrLog } from './stderr-log.js';
import { ToolrunError } from '../errors.js';

export interface StdioTapOptions {
  command: string;
  args: string[];
  cwd: string;
  /** The full environment of the child: the parent's plus the server's own entries. */
  env: NodeJS.ProcessEnv;
  /** Every raw line the server writes to stdout, JSON-RPC or not (the pollution checker's input). */
  onStdoutLine?: (line: RawLine) => void;
  /** The raw stdout bytes as they arrive (for saving a capture). */
  onStdoutChunk?: (chunk: Buffer) => void;
  /** A stdout line that is not a JSON-RPC message: the session goes on without it. */
  onPollution?: (line: RawLine, reason: string) => void;
  /** Each chunk of the server's stderr, as it arrives (for --verbose). */
  onStderr?: (chunk: Buffer) => void;
  /** The bytes written to the server's stdin (for a recording). */
  onStdinChunk?: (chunk: Buffer) => void;
  /** How long to wait after closing stdin, and after SIGTERM, before the next step. */
  shutdownGraceMs?: number;
  /** What the stderr cause table may name (the package of an npx-style runner). */
  causeContext?: CauseContext;
  /** Called when a shutdown starts (before stdin is closed) and once it is complete. */
  shutdownHooks?: { before?: () => void; after?: () => void };
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How the server went away when toolrun closed it (SPEC §5 step 8). */
export type ShutdownOutcome = 'already-exited' | 'stdin-closed' | 'SIGTERM' | 'SIGKILL';

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

/**
 * The MCP SDK Transport over a stdio server that toolrun spawns itself (execa), so it can keep what
 * the SDK's own transport drops: the last 64 kB of stderr, the exit code or signal, and every raw
 * stdout line. Lines that are not JSON-RPC are reported and skipped; the session continues (seed 000).
 */
export class StdioTapTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Every stderr line counted and matched against the cause table; the last 64 kB kept. */
  readonly stderr: StderrLog;
  exitInfo: ExitInfo | undefined;
  spawnedAt: number | undefined;
  /** Processes of the server still running after it exited, which toolrun then ended (SPEC §8). */
  leftBehind: ProcessInfo[] = [];
  /** Inherited by every process the server starts: finds them even once they left its group. */
  readonly marker = randomUUID();
  #child: ChildProcess | undefined;
  #exited: Promise<ExitInfo> | undefined;
  #shutdown: Promise<ShutdownOutcome> | undefined;
  #drained: Promise<void> = Promise.resolve();
  #live: LiveServer | undefined;
  readonly #options: StdioTapOptions;
  readonly #pending = new PendingRequests();
  /** Why the server can no longer answer anything (it closed its stdout), once it happened. */
  fault: string | undefined;

  constructor(options: StdioTapOptions) {
    this.#options = options;
    this.stderr = new StderrLog(options.causeContext);
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Set by the SDK client once initialize has answered. */
  protocolVersion: string | undefined;

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async start(): Promise<void> {
    const { command, args, cwd, env } = this.#options;
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
    const child = execa(command, args, {
      cwd,
      env: { ...env, [SERVER_MARKER_VARIABLE]: this.marker },
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
    this.#child = child;
    // 'exit', not 'close': a helper the server started may hold its stdout open long after it exited.
    this.#exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', () => resolve({ code: null, signal: null }));
    });
    const streamsClosed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    // The last lines it wrote are normally read by then; a pipe held open by a helper is not waited for.
    this.#drained = Promise.race([streamsClosed, new Promise<void>((resolve) => setTimeout(resolve, DRAIN_MS).unref())]);
    // execa's own promise settles with the same outcome; it must not be left unhandled.
    void child.catch(() => {});

    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error: NodeJS.ErrnoException) => reject(new SpawnError(describeSpawnError(error, command), error.code, command)));
    });
    this.spawnedAt = performance.now();
    this.#live = { pid: child.pid!, marker: this.marker, shutdown: () => this.shutdown() };
    trackServer(this.#live);

    const splitter = new LineSplitter((line) => this.#handleLine(line));
    child.stdout!.on('data', (chunk: Buffer) => {
      this.#options.onStdoutChunk?.(chunk);
      splitter.push(chunk);
    });
    child.stdout!.on('end', () => {
      splitter.end();
      // A process that exits closes stdout first: its exit is the better report, if it comes.
      setTimeout(() => {
        if (this.exitInfo || this.#shutdown) return;
        this.fault = `the server closed its stdout but is still running (pid ${child.pid}): it can no longer answer`;
        this.#failPending(this.fault);
      }, DRAIN_MS).unref();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr.push(chunk);
      this.#options.onStderr?.(chunk);
    });
    child.stderr!.on('end', () => this.stderr.end());
    // A server that exits while we write gives EPIPE: that is its exit, reported by onclose.
    child.stdin!.on('error', () => {});
    void this.#exited.then(async (info) => {
      this.exitInfo = info;
      await this.#drained;
      this.onclose?.();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || stdin.destroyed || this.exitInfo) throw new Error('the server has exited');
    if (this.fault) throw new Error(this.fault);
    this.#pending.noteSent(message);
    // Resolved once the data is queued, as the SDK's own transport does; waiting for the write
    // callback would add an event-loop turn to every call. Back-pressure still waits for 'drain'.
    const bytes = serializeMessage(message);
    this.#options.onStdinChunk?.(Buffer.from(bytes));
    if (!stdin.write(bytes)) await new Promise<void>((resolve) => stdin.once('drain', resolve));
  }

  /**
   * False while a connection attempt owns the shutdown: the SDK's Client closes the transport itself
   * when initialize fails, and the attempt then ends the server with the grace it chooses (short for
   * a server that already failed, long for an npx install that must not be cut).
   */
  closeOnRequest = true;

  /** Ends the server: stdin closed, then SIGTERM, then SIGKILL, each after a grace period; waits for it. */
  async close(): Promise<void> {
    if (this.closeOnRequest) await this.shutdown();
  }

  /**
   * Ends the server and everything it started (SPEC §8): stdin closed, then SIGTERM, then SIGKILL,
   * each after the grace period; then any of its processes still running after it (a `setsid()`
   * helper) is recorded in `leftBehind` and ended the same way. `graceMs` overrides the configured
   * grace: a server that already misbehaved gets less patience. Safe to call more than once.
   */
  shutdown(graceMs?: number): Promise<ShutdownOutcome> {
    if (!this.#child || !this.#exited) return Promise.resolve('already-exited');
    this.#shutdown ??= this.#runShutdown(this.#child, this.#exited, graceMs ?? this.#options.shutdownGraceMs ?? 1000);
    return this.#shutdown;
  }

  async #runShutdown(child: ChildProcess, exited: Promise<ExitInfo>, grace: number): Promise<ShutdownOutcome> {
    this.#options.shutdownHooks?.before?.();
    const pid = child.pid!;
    // Taken while the server still runs: once it exits, its helpers' parent is init.
    const family = findServerProcesses(pid, this.marker);
    let outcome: ShutdownOutcome = 'already-exited';
    if (!this.exitInfo) {
      child.stdin?.end();
      if (await exitsWithin(exited, grace)) outcome = 'stdin-closed';
      else {
        signalProcessGroup(pid, 'SIGTERM');
        for (const member of family) if (member.pgid !== pid) signalProcess(member.pid, 'SIGTERM');
        if (await exitsWithin(exited, grace)) outcome = 'SIGTERM';
        else {
          killServerNow({ pid, marker: this.marker });
          await exited;
          outcome = 'SIGKILL';
        }
      }
    }
    this.leftBehind = await endLeftovers(pid, this.marker, family, grace);
    // Every stdout line is read before the shutdown counts as done (doctor scans them next).
    await this.#drained;
    if (this.#live) untrackServer(this.#live);
    this.#options.shutdownHooks?.after?.();
    return outcome;
  }

  /** Answers every pending request with an error saying why the server cannot (SPEC §8: at once, not at the timeout). */
  #failPending(reason: string): void {
    for (const answer of this.#pending.failAll(reason)) this.onmessage?.(answer);
  }

  #handleLine(line: RawLine): void {
    this.#options.onStdoutLine?.(line);
    if (line.oversize) {
      this.#options.onPollution?.(line, `line of ${line.length} bytes is over the 10 MB limit`);
      // Most likely the answer itself: the request waiting for it will not get another.
      this.#failPending(`the server sent a stdout line of ${line.length} bytes, over the 10 MB limit; toolrun dropped it (it was probably the answer)`);
      return;
    }
    let message: JSONRPCMessage;
    try {
      // Exactly what the SDK's ReadBuffer does with a line.
      message = deserializeMessage(line.bytes.toString('utf8').replace(/\r$/, ''));
    } catch (error) {
      this.#options.onPollution?.(line, error instanceof SyntaxError ? 'not JSON' : 'not a JSON-RPC message');
      return;
    }
    const fault = this.#pending.noteReceived(message);
    if (fault) {
      // An answer to an id toolrun never sent: the real request will not be answered.
      this.#failPending(fault);
      return;
    }
    this.onmessage?.(message);
  }
}

/** How long to wait for a dead server's pipes to close: a helper may hold them open forever. */
const DRAIN_MS = 200;

function describeSpawnError(error: NodeJS.ErrnoException, command: string): string {
  if (error.code === 'ENOENT') return `command not found: '${command}' (not on PATH, or the file does not exist)`;
  if (error.code === 'EACCES') return `command not executable: '${command}' (permission denied; chmod +x it?)`;
  return `could not start '${command}': ${error.message}`;
}
