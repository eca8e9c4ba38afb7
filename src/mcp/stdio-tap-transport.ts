import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { execa } from 'execa';
import { ByteTail } from './byte-tail.js';
import { LineSplitter, type RawLine } from './line-splitter.js';
import { isProcessGroupAlive, signalProcessGroup, trackProcessGroup, untrackProcessGroup } from './process-group.js';

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
  /** How long to wait after closing stdin, and after SIGTERM, before the next step. */
  shutdownGraceMs?: number;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How the server went away when toolrun closed it (SPEC §5 step 8). */
export type ShutdownOutcome = 'already-exited' | 'stdin-closed' | 'SIGTERM' | 'SIGKILL';

export class SpawnError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
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

  readonly stderrTail = new ByteTail();
  exitInfo: ExitInfo | undefined;
  spawnedAt: number | undefined;
  #child: ChildProcess | undefined;
  #exited: Promise<ExitInfo> | undefined;
  #closing = false;
  readonly #options: StdioTapOptions;

  constructor(options: StdioTapOptions) {
    this.#options = options;
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
    if (!existsSync(cwd)) throw new SpawnError(`working directory does not exist: ${cwd}`, 'ENOCWD');
    const child = execa(command, args, {
      cwd,
      env,
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
    // 'close', not 'exit': it comes after stdout has ended, so every line has been seen by then.
    this.#exited = new Promise((resolve) => {
      child.once('close', (code, signal) => resolve({ code, signal }));
      child.once('error', () => resolve({ code: null, signal: null }));
    });
    // execa's own promise settles with the same outcome; it must not be left unhandled.
    void child.catch(() => {});

    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error: NodeJS.ErrnoException) => reject(new SpawnError(describeSpawnError(error, command), error.code)));
    });
    this.spawnedAt = performance.now();
    trackProcessGroup(child.pid!);

    const splitter = new LineSplitter((line) => this.#handleLine(line));
    child.stdout!.on('data', (chunk: Buffer) => {
      this.#options.onStdoutChunk?.(chunk);
      splitter.push(chunk);
    });
    child.stdout!.on('end', () => splitter.end());
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail.push(chunk);
      this.#options.onStderr?.(chunk);
    });
    // A server that exits while we write gives EPIPE: that is its exit, reported by onclose.
    child.stdin!.on('error', () => {});
    void this.#exited.then((info) => {
      this.exitInfo = info;
      untrackProcessGroup(child.pid!);
      this.onclose?.();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || stdin.destroyed || this.exitInfo) throw new Error('the server has exited');
    // Resolved once the data is queued, as the SDK's own transport does; waiting for the write
    // callback would add an event-loop turn to every call. Back-pressure still waits for 'drain'.
    if (!stdin.write(serializeMessage(message))) await new Promise<void>((resolve) => stdin.once('drain', resolve));
  }

  /** Ends the server: stdin closed, then SIGTERM, then SIGKILL, each after a grace period; waits for it. */
  async close(): Promise<void> {
    await this.shutdown();
  }

  /** `graceMs` overrides the configured grace: a server that already misbehaved gets less patience. */
  async shutdown(graceMs?: number): Promise<ShutdownOutcome> {
    const child = this.#child;
    if (!child || !this.#exited) return 'already-exited';
    if (this.#closing) {
      await this.#exited;
      return 'already-exited';
    }
    this.#closing = true;
    if (this.exitInfo && !isProcessGroupAlive(child.pid!)) return 'already-exited';
    const grace = graceMs ?? this.#options.shutdownGraceMs ?? 1000;
    child.stdin?.end();
    if (await exitsWithin(this.#exited, grace)) return this.#finish(child, 'stdin-closed');
    signalProcessGroup(child.pid!, 'SIGTERM');
    if (await exitsWithin(this.#exited, grace)) return this.#finish(child, 'SIGTERM');
    signalProcessGroup(child.pid!, 'SIGKILL');
    await this.#exited;
    return this.#finish(child, 'SIGKILL');
  }

  #finish(child: ChildProcess, outcome: ShutdownOutcome): ShutdownOutcome {
    // The leader is gone; anything it started in its group goes with it.
    if (isProcessGroupAlive(child.pid!)) signalProcessGroup(child.pid!, 'SIGKILL');
    return outcome;
  }

  #handleLine(line: RawLine): void {
    this.#options.onStdoutLine?.(line);
    if (line.oversize) {
      this.#options.onPollution?.(line, `line of ${line.length} bytes is over the 10 MB limit`);
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
    this.onmessage?.(message);
  }
}

function exitsWithin(exited: Promise<ExitInfo>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void exited.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function describeSpawnError(error: NodeJS.ErrnoException, command: string): string {
  if (error.code === 'ENOENT') return `command not found: '${command}' (not on PATH, or the file does not exist)`;
  if (error.code === 'EACCES') return `command not executable: '${command}' (permission denied; chmod +x it?)`;
  return `could not start '${command}': ${error.message}`;
}
