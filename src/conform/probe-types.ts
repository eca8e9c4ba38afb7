/**
 * A raw JSON-RPC conversation with a server under test: toolrun sends exactly what a check asks,
 * records every frame both ways, and never lets an SDK fix or hide what the server did. One
 * ProbeChannel is one connection (a stdio process, or an HTTP session); the era's envelope
 * (2026-07-28 `_meta` and headers, or the 2025 session) is the channel's business, not the checks'.
 */

/** One frame on the wire, in order. `message` is the parsed JSON (or undefined for a line that is not JSON). */
export interface RecordedFrame {
  /** 0-based position in the channel's log. */
  index: number;
  direction: 'sent' | 'received';
  /** ms since the channel opened. */
  atMs: number;
  message: unknown;
  /** For a received stdio frame: its 1-based stdout line number. */
  line?: number;
  /** The raw text when it is not valid JSON-RPC (pollution, a broken line), cut to 200 chars. */
  raw?: string;
  /** For a received response: the method of the request it answers, when its id matched one sent. */
  answers?: string;
  /**
   * Part of the era probe (SPEC §10: server/discover sent to what turned out to be a 2025 server,
   * and its refusal). A 2025 server owes that request nothing: checks do not judge these frames.
   */
  probe?: boolean;
}

/** What a request came back with. Never thrown: a check judges each outcome. */
export type ProbeAnswer =
  | { kind: 'result'; result: Record<string, unknown>; frame: RecordedFrame }
  | { kind: 'error'; error: { code: number; message: string; data?: unknown }; frame: RecordedFrame }
  /** No answer within the time asked (the request stays noted as unanswered). */
  | { kind: 'timeout'; afterMs: number }
  /** The connection ended (process exited, stdout closed, HTTP failure) before an answer. */
  | { kind: 'closed'; reason: string };

export interface ProbeRequestOptions {
  /** Default: the channel's request timeout (`--timeout`, 10 s by default). */
  timeoutMs?: number;
  /** Sent as `_meta.progressToken` (merged with the era's `_meta`). */
  progressToken?: string | number;
  /** Leave the era's envelope off (2026-07-28 `_meta`), to see what the server does without it. */
  bare?: boolean;
  /** Ask in another revision than the channel's (its `_meta` and HTTP header), for version negotiation. */
  protocolVersion?: string;
}

export interface ProbeChannel {
  readonly transport: 'stdio' | 'http' | 'sse';
  /** 'legacy' (initialize handshake) or 'modern' (2026-07-28: server/discover, `_meta` per request). */
  era: 'legacy' | 'modern';
  /** The revision this channel speaks (after the handshake: the negotiated one). */
  protocolVersion: string;
  /** The client capabilities it claims at the handshake ({}: conform answers nothing back; the apps check claims the Apps extension). */
  clientCapabilities?: Record<string, unknown>;
  /** Every frame so far, both ways, in order. */
  readonly frames: readonly RecordedFrame[];
  /** Sends a request with a fresh id and waits for its answer. */
  request(method: string, params?: Record<string, unknown>, options?: ProbeRequestOptions): Promise<ProbeAnswer>;
  /** Sends a request without waiting: the id, and the answer when it comes (for cancellation). */
  start(method: string, params?: Record<string, unknown>, options?: ProbeRequestOptions): { id: number; answer: Promise<ProbeAnswer> };
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /**
   * Cancels a started request the era's way, where that is not a notification: 2026-07-28 over
   * Streamable HTTP cancels by closing the request's response stream. Absent: the cancellation check
   * sends `notifications/cancelled` itself (2025 family, and stdio in both eras).
   */
  cancel?(id: number, reason: string): Promise<void>;
  /** The frames from position `fromIndex` on (both ways), e.g. the notifications that came during a call. */
  framesFrom(fromIndex: number): RecordedFrame[];
  /** Why the channel cannot be used any more, once it cannot (exit, closed stdout, HTTP failure). */
  readonly fault: string | undefined;
  /** Ends the connection (stdio: the shutdown ladder). */
  close(): Promise<void>;
}
