import { traceHandedOver, withServedTrace } from '../trace/run-trace.js';
import type { Socket } from 'node:net';
import { describeThrown, ToolrunError } from '../errors.js';
import type { RequestContext } from './holder-ops.js';
import { MAX_REQUEST_LINE_BYTES, messageReader, type AskAnswer, type HolderRequest } from './holder-protocol.js';

/** How long the rest of an over-long request line is read and dropped before its connection is closed. */
const TOO_LONG_DRAIN_MS = 1000;

/** What serving one client's connection needs from the holder (run-holder.ts). */
export interface SocketServing {
  /** Open client connections, ended when the holder stops. */
  sockets: Set<Socket>;
  /** The requests using each server right now: they get its stderr and log messages. */
  using: Map<string, Set<RequestContext>>;
  dispatch(request: HolderRequest, context: RequestContext): Promise<Record<string, unknown>>;
  /** A request came or ended: the idle clock starts again. */
  touch(): void;
  countRequest(): void;
  logLine(text: string): void;
}

/**
 * One client's connection to the holder: newline-delimited requests in, replies and events out,
 * each request cancellable by id; a client that goes away cancels what it asked for. A bad or
 * oversized line is that client's problem: it gets an error reply, every other call goes on.
 */
export function serveHolderSocket(socket: Socket, serving: SocketServing): void {
  serving.sockets.add(socket);
  const running = new Map<number, AbortController>();
  // Questions relayed to this client (relay-ask-back.ts), by the number its `answer` names.
  const asks = new Map<number, (answer: AskAnswer) => void>();
  let nextAsk = 1;
  socket.on('error', () => {});
  socket.on('close', () => {
    serving.sockets.delete(socket);
    // A client that went away (Ctrl-C, killed) cancels what it asked for.
    for (const controller of running.values()) controller.abort(new ToolrunError('interrupted', 'the client went away'));
  });
  const write = (message: Record<string, unknown>) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
  };
  socket.on(
    'data',
    messageReader((message) => void handle(message as unknown as HolderRequest), {
      maxLineBytes: MAX_REQUEST_LINE_BYTES,
      // A bad request is that client's problem: it gets an error reply, the holder and every other call go on.
      onBadLine: (problem) => write({ id: null, done: true, ok: false, error: { message: `bad request: ${problem}`, kind: 'usage' } }),
      onTooLong: () => {
        serving.logLine(`a client sent a request line over ${MAX_REQUEST_LINE_BYTES} bytes; its connection was closed`);
        // Said, then closed. The rest of the line (it may never end) is read and dropped, not kept, for
        // a moment: closing a socket with unread data resets it, and the client could lose the reply.
        const reply = { id: null, done: true, ok: false, error: { message: `bad request: a request line is limited to ${MAX_REQUEST_LINE_BYTES} bytes`, kind: 'usage' } };
        socket.removeAllListeners('data');
        socket.on('data', () => {});
        socket.end(`${JSON.stringify(reply)}\n`);
        setTimeout(() => socket.destroy(), TOO_LONG_DRAIN_MS).unref();
      },
    }),
  );
  const handle = async (request: HolderRequest) => {
    if (typeof request.op !== 'string') return write({ id: request.id ?? null, done: true, ok: false, error: { message: 'bad request: no "op"', kind: 'usage' } });
    serving.touch();
    if (request.op === 'cancel') {
      if (typeof request.target === 'number') running.get(request.target)?.abort(new ToolrunError('interrupted', 'interrupted'));
      return write({ id: request.id, done: true, ok: true });
    }
    if (request.op === 'answer') {
      if (typeof request.ask === 'number' && isAnswer(request.answer)) asks.get(request.ask)?.(request.answer);
      return write({ id: request.id, done: true, ok: true });
    }
    serving.countRequest();
    const controller = new AbortController();
    running.set(request.id, controller);
    const servers = new Set<string>();
    const context: RequestContext = {
      request,
      signal: controller.signal,
      event: (event, fields) => write({ ...fields, id: request.id, event }),
      uses: (name) => {
        servers.add(name);
        serving.using.set(name, (serving.using.get(name) ?? new Set()).add(context));
      },
      ask: (question, signal) =>
        new Promise((resolve, reject) => {
          const ask = nextAsk++;
          const gone = () => {
            asks.delete(ask);
            reject(new Error(signal.aborted ? 'the server cancelled its request' : 'the command went away before answering'));
          };
          const both = AbortSignal.any([signal, controller.signal]);
          if (both.aborted) return gone();
          both.addEventListener('abort', gone, { once: true });
          asks.set(ask, (answer) => {
            asks.delete(ask);
            both.removeEventListener('abort', gone);
            resolve(answer);
          });
          write({ ...question, id: request.id, event: 'ask', ask });
        }),
    };
    try {
      // Its requests to servers carry the command's trace context, not the holder's (SPEC §23).
      const result = await withServedTrace(traceHandedOver(request), () => serving.dispatch(request, context));
      write({ ...result, id: request.id, done: true, ok: true });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      write({
        id: request.id,
        done: true,
        ok: false,
        error: {
          message: error instanceof ToolrunError ? error.message : describeThrown(error),
          code: typeof code === 'number' ? code : undefined,
          kind: error instanceof ToolrunError ? error.kind : undefined,
          data: (error as { data?: unknown }).data,
        },
      });
    } finally {
      running.delete(request.id);
      for (const name of servers) serving.using.get(name)?.delete(context);
      serving.touch();
    }
  };
}

/** A client's answer, checked: it comes over the socket. */
function isAnswer(answer: unknown): answer is AskAnswer {
  if (typeof answer !== 'object' || answer === null) return false;
  const fields = answer as Record<string, unknown>;
  return 'result' in fields || fields.unhandled === true || (typeof fields.error === 'object' && fields.error !== null && typeof (fields.error as { message?: unknown }).message === 'string');
}
