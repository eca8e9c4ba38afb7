import type { CheckEvidence, Verdict } from './conform-types.js';
import type { ProbeChannel, RecordedFrame } from './probe-types.js';
import type { ExportedSpan } from '../trace/otlp-receiver.js';

/** A tool call the run may make: from `--call TOOL ARGS` (given) or `--call-all` (generated from the schema). */
export interface PlannedCall {
  tool: string;
  arguments: Record<string, unknown>;
  generated: boolean;
  /** Set when the call is not made, and why (e.g. `--call-all` could not generate valid arguments). */
  skipped?: string;
}

/** Every page of one list method, as the server sent it (the pagination check judges these). */
export interface ListedPages {
  method: string;
  /** The items of every page, in order (tools, resources, resourceTemplates or prompts). */
  items: Record<string, unknown>[];
  /** One entry per request made: the cursor sent and the answer's frame. */
  pages: { cursor?: string; frame?: RecordedFrame; nextCursor?: string }[];
  /** Why the listing stopped early (an error answer, a timeout, a repeated cursor, the page bound). */
  stopped?: { reason: string; frame?: RecordedFrame };
}

/** What every check gets: the main connection after its handshake, and what the run knows. */
export interface ConformContext {
  channel: ProbeChannel;
  /** The handshake's answer: `initialize` (2025 family) or `server/discover` (2026-07-28). */
  handshake: { method: 'initialize' | 'server/discover'; request?: RecordedFrame; response?: RecordedFrame; result: Record<string, unknown> };
  /** The server's capabilities from the handshake ({} when none). */
  capabilities: Record<string, unknown>;
  /** The calls `--call` / `--call-all` allow (empty: no tool is called). */
  calls: PlannedCall[];
  /** Whether `--call-all` was given (its calls are planned once tools are listed). */
  callAll: boolean;
  /** Per-request time limit. */
  timeoutMs: number;
  /** Lists `method` through every page, once per run (memoized: checks share the listing). */
  listAll(method: 'tools/list' | 'resources/list' | 'resources/templates/list' | 'prompts/list'): Promise<ListedPages>;
  /** A fresh connection to the same server, not yet handshaken (stdio: a new process), closed by the run. */
  openFreshChannel(): Promise<ProbeChannel>;
  signal: AbortSignal;
  /** What the transports saw, for the framing, purity and shutdown checks (set by the runner). */
  transport?: TransportFacts;
  /** `--trace`: toolrun's trace and what the server exported to the run's OTLP receiver. */
  trace?: ConformTrace;
}

/** `mcp conform --trace` (SPEC §23): the run's trace, the spans received, what was sent. */
export interface ConformTrace {
  traceId: string;
  /** Waits (bounded) for the server's spans to arrive. */
  waitForSpans(): Promise<void>;
  spans(): ExportedSpan[];
  /** Exports the receiver could not read, and why. */
  refused: string[];
  /** Over HTTP: the span ids of the POSTs' own traceparent headers (apart from the messages' _meta). */
  headerSpans: Set<string>;
  /** Each request toolrun sent in the run (every connection), by the span id its traceparent named. */
  sent(): Map<string, { method: string; id: unknown }>;
}

/** What the wires of a run saw, beyond the frames. */
export interface TransportFacts {
  /** Responses to ids toolrun never sent, or second responses (every channel of the run). */
  strays: { frame: RecordedFrame; reason: string }[];
  /** Why a channel stopped reading (a flood), if one did. */
  overflow?: string;
  /** stdio: every stdout line that is not a JSON-RPC message, on every connection of the run. */
  pollution?: { line: number; text: string; reason: string; start?: number }[];
  /** Tool calls toolrun itself gave up on at --timeout and cancelled (every channel of the run). */
  givenUpCalls?: number;
  /** stdio: closes the main server's stdin and says how it ended (the last check of a run). */
  shutdown?: () => Promise<{ outcome: string; afterMs: number; exit?: string; graceMs: number }>;
}

/** A check's own verdict; the runner adds id, title, section and duration. */
export interface CheckOutcome {
  verdict: Verdict;
  message: string;
  evidence?: CheckEvidence[];
}

export interface ConformCheck {
  id: string;
  title: string;
  /** Spec page and anchor under the revision's base URL, e.g. `basic/lifecycle#version-negotiation`. */
  section: string;
  /** The section in the 2026-07-28 revision when the page moved there (e.g. `basic/patterns/cancellation`). */
  modernSection?: string;
  /** Which transports it applies to (default: all); elsewhere it is a skip saying so. */
  transports?: ('stdio' | 'http' | 'sse')[];
  /**
   * Judges only what was already recorded (or ends the server): runs even once the run's deadline
   * has passed, so a server that hangs still gets its frames, stdout and shutdown judged.
   */
  afterDeadline?: boolean;
  run(context: ConformContext): Promise<CheckOutcome>;
}
