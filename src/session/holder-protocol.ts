/**
 * What a client and a holder say to each other over the holder's Unix socket: one JSON object per
 * line. A client sends requests `{id, op, ...}`; the holder answers each with events
 * `{id, event, ...}` (progress, server logs and stderr while it runs) and one final reply
 * `{id, done: true, ok, ...}`. A held server's question during a request (elicitation, sampling,
 * roots) comes as an `ask` event `{id, event: 'ask', ask: N, server, method, params}`; the client
 * answers it with a request `{op: 'answer', ask: N, answer: AskAnswer}`.
 */

export type HolderOp = 'status' | 'exec' | 'servers' | 'request' | 'call-tool' | 'ping' | 'time' | 'cancel' | 'answer' | 'add' | 'stop' | 'stderr' | 'follow';

export interface HolderRequest {
  id: number;
  op: HolderOp;
  [field: string]: unknown;
}

export interface HolderEvent {
  id: number;
  /** `ask`: a held server asked the client back during this request (relay-ask-back.ts); the client sends `answer`. */
  event: 'progress' | 'log' | 'stderr' | 'note' | 'timed' | 'ask';
  server?: string;
  [field: string]: unknown;
}

export interface HolderReply {
  id: number;
  done: true;
  ok: boolean;
  /** When ok is false: what went wrong, with the MCP error code when the server gave one. */
  error?: { message: string; code?: number; kind?: string; data?: unknown };
  [field: string]: unknown;
}

/** The requests a server may send its client that a holder relays to the command (relay-ask-back.ts; SPEC §15). */
export type AskMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/**
 * What a command answered to a relayed question: the result to send the server, an error, or
 * `unhandled` (the command has no answer of that kind: no --sampling-reply, no --root), in which
 * case the holder answers with its own flags.
 */
export type AskAnswer = { result: unknown } | { error: { message: string; code?: number } } | { unhandled: true };

/** What `status` answers: the holder and each of its servers. */
export interface HolderStatus {
  pid: number;
  /** The holder's socket (its name is the config's key). */
  socket: string;
  config: string | null;
  startedAt: string;
  /** ms since the last request. */
  idleMs: number;
  idleTimeoutMs: number;
  /** Requests served (each exec, list, call…); the servers' own `calls` count tool calls. */
  requests: number;
  /** Does it hold every server of its config (then a tool it does not know is not in the config)? */
  holdsAll: boolean;
  servers: HeldServerStatus[];
  /** What its servers were told the client offers besides elicitation (`session start --sampling-reply`, `--root`). */
  offers?: { sampling: boolean; roots: boolean };
  /** Set by `session list` for a holder that accepts connections but does not answer (stopped, stuck). */
  hung?: string;
}

/**
 * One held server: connected; `crashed` (it was connected, then its process exited or its stdout
 * closed — `reason` says how, `restartsOnUse` whether the next call restarts it); or `failed` (it
 * could not be connected, at start or when restarted).
 */
export interface HeldServerStatus {
  name: string;
  status: 'connected' | 'failed' | 'crashed';
  tools?: number;
  calls?: number;
  pid?: number;
  protocol?: string;
  reason?: string;
  restartsOnUse?: boolean;
  /** Times the holder restarted it after a crash. */
  restarts?: number;
}

/**
 * The longest request line a holder reads: above the biggest legitimate request (ARGS are read up to
 * 64 MB, SPEC §8, and re-encoded no larger; key=value words come from a command line of a few MB).
 * A longer line ends that connection, never the holder.
 */
export const MAX_REQUEST_LINE_BYTES = 96 * 1024 * 1024;

export interface MessageReaderOptions {
  /** Lines longer than this end the reading (see onTooLong); no limit when absent. */
  maxLineBytes?: number;
  /** A line over maxLineBytes (even before its newline came): nothing more is read. */
  onTooLong?: () => void;
  /** A line that is not a JSON object (`null`, `42`, `[]`, not JSON at all); ignored when absent. */
  onBadLine?: (problem: string) => void;
}

/**
 * Splits a socket's data into JSON-object messages. Each chunk is scanned once for newlines (a line
 * arriving in many chunks is joined once, when its newline comes): reading is linear in the bytes,
 * however long the line.
 */
export function messageReader(onMessage: (message: Record<string, unknown>) => void, options: MessageReaderOptions = {}): (chunk: Buffer) => void {
  const max = options.maxLineBytes ?? Infinity;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let ended = false;
  const tooLong = () => {
    ended = true;
    parts = [];
    options.onTooLong?.();
  };
  return (chunk) => {
    if (ended) return;
    let start = 0;
    for (let newline = chunk.indexOf(10); newline >= 0; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (partBytes + piece.length > max) return tooLong();
      const line = parts.length > 0 ? Buffer.concat([...parts, piece]) : piece;
      parts = [];
      partBytes = 0;
      readLine(line.toString('utf8'), onMessage, options.onBadLine);
      if (ended) return;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      partBytes += rest.length;
      if (partBytes > max) return tooLong();
      parts.push(rest);
    }
  };
}

function readLine(line: string, onMessage: (message: Record<string, unknown>) => void, onBadLine: ((problem: string) => void) | undefined): void {
  if (!line.trim()) return;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    onBadLine?.('the line is not JSON');
    return;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    onBadLine?.(`a request must be a JSON object, got ${message === null ? 'null' : Array.isArray(message) ? 'an array' : typeof message}`);
    return;
  }
  onMessage(message as Record<string, unknown>);
}

/** How `session start`'s ask-back flags reach the holder (JSON): not its command line, which any user can read; it removes the variable before starting any server. */
export const HOLDER_ASK_BACK_VARIABLE = 'TOOLRUN_HOLDER_ASK_BACK';
