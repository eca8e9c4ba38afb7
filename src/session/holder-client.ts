import { traceContextToHand } from '../trace/run-trace.js';
import { connect, type Socket } from 'node:net';
import { messageReader, type HolderEvent, type HolderOp, type HolderReply } from './holder-protocol.js';
import { ToolrunError, type ErrorKind } from '../errors.js';

/** How long a client waits for a holder's socket to accept: a hung holder means a cold start, not a wait. */
export const HOLDER_CONNECT_TIMEOUT_MS = 300;

/** An error the holder reported for a request, with the MCP error code when the server gave one. */
export class HolderRequestError extends ToolrunError {
  constructor(
    message: string,
    readonly code?: number,
    /** The kind of error the holder's own run gave (tool not found, bad arguments), when it was one of toolrun's. */
    readonly reportedKind?: ErrorKind,
    readonly data?: unknown,
  ) {
    super(reportedKind ?? 'unreachable', message);
    this.name = 'HolderRequestError';
  }
}

interface Pending {
  resolve: (reply: HolderReply) => void;
  reject: (error: Error) => void;
  onEvent?: (event: HolderEvent) => void;
}

/** A connection to a holder: requests with their events, cancel, close. */
export class HolderClient {
  readonly #socket: Socket;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed: Error | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on(
      'data',
      messageReader((message) => this.#receive(message)),
    );
    const fail = (error: Error) => {
      this.#closed ??= error;
      for (const pending of this.#pending.values()) pending.reject(this.#closed);
      this.#pending.clear();
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the session holder closed the connection')));
  }

  /** Connects, or rejects within `timeoutMs` (no holder, a stale socket, a hung holder). */
  static connect(socketPath: string, timeoutMs = HOLDER_CONNECT_TIMEOUT_MS): Promise<HolderClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`the session holder did not accept within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new HolderClient(socket));
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  /** Sends a request; resolves with the holder's reply (ok or not), rejects when the holder is gone. */
  send(op: HolderOp, fields: Record<string, unknown> = {}, onEvent?: (event: HolderEvent) => void): { id: number; reply: Promise<HolderReply> } {
    const id = this.#nextId++;
    const reply = new Promise<HolderReply>((resolve, reject) => {
      if (this.#closed) return reject(this.#closed);
      this.#pending.set(id, { resolve, reject, onEvent });
      // The command's trace context: what the holder sends on its behalf continues it (SPEC §23).
      this.#socket.write(`${JSON.stringify({ ...fields, ...traceContextToHand(), id, op })}\n`);
    });
    return { id, reply };
  }

  /** Like send, but a reply with ok: false rejects with HolderRequestError. A signal sends `cancel` for it. */
  async request(op: HolderOp, fields: Record<string, unknown> = {}, options: { onEvent?: (event: HolderEvent) => void; signal?: AbortSignal } = {}): Promise<HolderReply> {
    const { id, reply } = this.send(op, fields, options.onEvent);
    const cancel = () => this.send('cancel', { target: id }).reply.catch(() => {});
    options.signal?.addEventListener('abort', cancel, { once: true });
    try {
      const answer = await reply;
      if (!answer.ok)
        throw new HolderRequestError(answer.error?.message ?? 'the session holder reported an error', answer.error?.code, answer.error?.kind as ErrorKind | undefined, answer.error?.data);
      return answer;
    } finally {
      options.signal?.removeEventListener('abort', cancel);
    }
  }

  /** The connection is gone (the holder closed it, exited, or close() was called). */
  get isClosed(): boolean {
    return this.#closed !== undefined;
  }

  close(): void {
    this.#closed ??= new Error('closed');
    this.#socket.end();
    this.#socket.unref();
  }

  #receive(message: Record<string, unknown>): void {
    const pending = this.#pending.get(message.id as number);
    if (!pending) return;
    if (message.done === true) {
      this.#pending.delete(message.id as number);
      pending.resolve(message as unknown as HolderReply);
    } else pending.onEvent?.(message as unknown as HolderEvent);
  }
}
