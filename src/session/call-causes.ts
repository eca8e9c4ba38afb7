import { ToolrunError } from '../errors.js';
import { causeInStderrLine, type Cause } from '../mcp/causes/failure-causes.js';
import { maskKnownSecrets, maskThenCut } from '../secrets/mask-secrets.js';

/**
 * A held server whose backend went down (its database stopped) often does not fail its calls: its
 * driver reconnects with back-off while the call waits, and the call would end only at its timeout —
 * where a cold start fails in seconds, at connect, because the same stderr line ends the attempt.
 * So during a call through the holder, the server's stderr is read against the cause table as at
 * connect: a line naming a cause that ends an attempt (connection refused, host not found…) gives
 * the server the same short grace as at connect, then the call ends with that cause.
 */
export const CALL_CAUSE_GRACE_MS = 1000;

/** How much of one unterminated stderr line is kept (the cause table reads a line's start only). */
const PARTIAL_LIMIT = 4096;

type Listener = (cause: Cause, line: string) => void;

/** Each held server's stderr, split into lines, and the calls listening to it right now. */
export class CallCauseWatch {
  readonly #partial = new Map<string, string>();
  readonly #listeners = new Map<string, Set<Listener>>();

  /** A chunk of a server's stderr (from the holder's connect hooks). */
  push(server: string, chunk: Buffer): void {
    const listening = this.#listeners.get(server);
    const text = (this.#partial.get(server) ?? '') + chunk.toString('utf8');
    const lines = text.split('\n');
    this.#partial.set(server, lines.pop()!.slice(0, PARTIAL_LIMIT));
    if (!listening || listening.size === 0) return;
    for (const line of lines) {
      const cause = causeInStderrLine(line);
      if (cause?.endsAttempt) for (const listener of listening) listener(cause, line.trim());
    }
  }

  /**
   * Runs `call` with a signal that also aborts (with a `tool_error` naming the cause) when the
   * server's stderr names a cause during the call and the call has not answered within the grace.
   */
  async during<T>(server: string, toolName: string, signal: AbortSignal, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const listener: Listener = (cause, line) => {
      timer ??= setTimeout(
        () =>
          controller.abort(
            new ToolrunError('tool_error', `MCP server '${server}': ${cause.reason} during the call to '${toolName}' (its stderr: ${maskThenCut(line, 300, '', maskKnownSecrets)}); ${cause.fix}`),
          ),
        CALL_CAUSE_GRACE_MS,
      );
    };
    const listeners = this.#listeners.get(server) ?? new Set();
    this.#listeners.set(server, listeners.add(listener));
    try {
      return await call(controller.signal);
    } finally {
      clearTimeout(timer);
      listeners.delete(listener);
      signal.removeEventListener('abort', onAbort);
    }
  }

  forget(server: string): void {
    this.#partial.delete(server);
  }
}
