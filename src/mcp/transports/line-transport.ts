import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ExitInfo, ShutdownOutcome } from '../../process/exit-info.js';
import { LineSplitter, type RawLine } from '../../process/line-splitter.js';
import type { ProcessInfo } from '../../process/process-tree.js';
import { ServerProcess, type ServerProcessOptions } from '../../process/server-process.js';
import type { CauseContext } from '../causes/failure-causes.js';
import { PendingRequests } from './pending-requests.js';
import { StderrLog } from '../causes/stderr-log.js';

/** What a line transport tells about the bytes going both ways (a recorder, a scanner, --verbose). */
export interface LineHooks {
  /** The raw stdout bytes as they arrive. */
  onStdoutChunk?: (chunk: Buffer) => void;
  /** Every raw line the server writes to stdout, JSON-RPC or not (the pollution checker's input). */
  onStdoutLine?: (line: RawLine) => void;
  /** A stdout line that is not a JSON-RPC message: the session goes on without it. */
  onPollution?: (line: RawLine, reason: string) => void;
  /** Each chunk of the server's stderr, as it arrives. */
  onStderr?: (chunk: Buffer) => void;
  /** The bytes written to the server's stdin. */
  onStdinChunk?: (chunk: Buffer) => void;
}

/** How long after stdout closes an exit still counts as the reason (it is the better report). */
const EXIT_AFTER_STDOUT_MS = 200;

export interface LineTransportOptions extends ServerProcessOptions, LineHooks {
  /** What the stderr cause table may name (the package of an npx-style runner). */
  causeContext?: CauseContext;
}

/**
 * The MCP SDK's Transport over a stdio server process: one JSON-RPC message per line. Unlike the
 * SDK's own, it keeps what diagnosis needs (the process's stderr, read line by line against the
 * cause table, its exit, every raw stdout line) and survives pollution: a line that is not JSON-RPC
 * is reported and skipped (seed 000). The process itself (spawn, group, shutdown) is ServerProcess.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Every stderr line counted and matched against the cause table; the last 64 kB kept. */
  readonly stderr: StderrLog;
  /** The server process, once started. */
  process: ServerProcess | undefined;
  /** Why the server can no longer answer anything (it closed its stdout), once it happened. */
  fault: string | undefined;
  /** Set by the SDK client once initialize has answered. */
  protocolVersion: string | undefined;
  /**
   * False while a connection attempt owns the shutdown: the SDK's Client closes the transport itself
   * when initialize fails, and the attempt then ends the server with the grace it chooses (short for
   * a server that already failed, long for an npx install that must not be cut).
   */
  closeOnRequest = true;
  readonly #options: LineTransportOptions;
  readonly #pending = new PendingRequests();

  constructor(options: LineTransportOptions) {
    this.#options = options;
    this.stderr = new StderrLog(options.causeContext);
  }

  get pid(): number | undefined {
    return this.process?.pid;
  }

  get exitInfo(): ExitInfo | undefined {
    return this.process?.exitInfo;
  }

  get spawnedAt(): number | undefined {
    return this.process?.spawnedAt;
  }

  get leftBehind(): ProcessInfo[] {
    return this.process?.leftBehind ?? [];
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async start(): Promise<void> {
    const server = await ServerProcess.start(this.#options);
    this.process = server;
    const hooks = this.#options;
    const splitter = new LineSplitter((line) => this.#handleLine(line));
    server.stdout.on('data', (chunk: Buffer) => {
      hooks.onStdoutChunk?.(chunk);
      splitter.push(chunk);
    });
    server.stdout.on('end', () => {
      splitter.end();
      // A process that exits closes stdout first: its exit is the better report, if it comes.
      setTimeout(() => {
        if (server.exitInfo || server.stopping) return;
        this.fault = `the server closed its stdout but is still running (pid ${server.pid}): it can no longer answer`;
        this.#failPending(this.fault);
      }, EXIT_AFTER_STDOUT_MS).unref();
    });
    server.stderr.on('data', (chunk: Buffer) => {
      this.stderr.push(chunk);
      hooks.onStderr?.(chunk);
    });
    server.stderr.on('end', () => this.stderr.end());
    void server.drained().then(() => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const server = this.process;
    if (!server || server.stdin.destroyed || server.exitInfo) throw new Error('the server has exited');
    if (this.fault) throw new Error(this.fault);
    this.#pending.noteSent(message);
    // Resolved once the data is queued, as the SDK's own transport does; waiting for the write
    // callback would add an event-loop turn to every call. Back-pressure still waits for 'drain'.
    const bytes = serializeMessage(message);
    this.#options.onStdinChunk?.(Buffer.from(bytes));
    if (!server.stdin.write(bytes)) await new Promise<void>((resolve) => server.stdin.once('drain', resolve));
  }

  /** Ends the server (unless a connection attempt owns the shutdown, see closeOnRequest). */
  async close(): Promise<void> {
    if (this.closeOnRequest) await this.shutdown();
  }

  /** The process's shutdown ladder (ServerProcess.shutdown); nothing to do if it never started. */
  shutdown(graceMs?: number): Promise<ShutdownOutcome> {
    return this.process ? this.process.shutdown(graceMs) : Promise.resolve('already-exited');
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
