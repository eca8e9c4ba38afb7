import { AsyncLocalStorage } from 'node:async_hooks';
import { perRunState } from '../run-environment.js';
import { formatTraceParent, NEW_TRACE_FLAGS, parseTraceParent, randomHexId, validTraceState } from './trace-context.js';

/** Where a request goes, for the span's network attributes. */
export interface NetworkTarget {
  /** `pipe` for stdio, `tcp` for HTTP (semconv: network.transport). */
  transport: 'pipe' | 'tcp';
  address?: string;
  port?: number;
}

/** An HTTP server's address, as semconv's server.address and server.port name it. */
export function httpTarget(url: URL): NetworkTarget {
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { transport: 'tcp', address: url.hostname, port };
}

/** One request toolrun sends, as its span sees it. */
export interface RequestInfo {
  method: string;
  id: string | number;
  params: Record<string, unknown> | undefined;
  sessionId?: string;
  protocolVersion?: string;
  network?: NetworkTarget;
}

/** How a request ended: its result, or its JSON-RPC error (or a local one: a timeout, a closed connection). */
export interface RequestOutcome {
  result?: unknown;
  error?: { code?: number | string; message?: string };
}

/** A span of one request, exported when it ends. */
export interface RequestSpan {
  readonly spanId: string;
  end(outcome: RequestOutcome): void;
}

/** The spans of one command, exported over OTLP (otlp-export.ts, loaded only with --otlp). */
export interface SpanRecorder {
  readonly traceId: string;
  /** The command's own span: the parent of its requests' spans. */
  readonly rootSpanId: string;
  readonly flags: string;
  startRequest(info: RequestInfo): RequestSpan;
  /** Ends the command's span and exports what is left; resolves with a warning when the export failed. */
  finish(exitCode: number): Promise<string | undefined>;
}

/** The trace a command's requests belong to. */
export interface RunTrace {
  traceId: string;
  /** The span id sent as every request's parent when nothing records spans: the caller's, or one of toolrun's own. */
  parentId: string;
  flags: string;
  tracestate?: string;
  /** Where the trace came from, for --verbose. */
  source: 'new' | '--trace-parent' | 'TRACEPARENT';
  recorder?: SpanRecorder;
}

const runTrace = perRunState<{ current?: RunTrace }>(() => ({}));

/** Sets the running command's trace (cli.ts, once the global options are read). */
export function setRunTrace(trace: RunTrace): void {
  runTrace().current = trace;
}

/** The trace of a command a session holder is serving, for the requests it makes on that command's behalf. */
const servedTrace = new AsyncLocalStorage<RunTrace>();

/** Runs `run` with `trace` as the current trace (a holder serving one command's request); none: unchanged. */
export function withServedTrace<T>(trace: RunTrace | undefined, run: () => T): T {
  return trace ? servedTrace.run(trace, run) : run();
}

/**
 * What a command hands a session holder with each request, so the requests the holder sends for it
 * continue the command's trace (its own span when it records spans, else its parent).
 */
export function traceContextToHand(): { traceparent: string; tracestate?: string } {
  const trace = currentRunTrace();
  const traceparent = formatTraceParent(trace.traceId, trace.parentId, trace.flags);
  return trace.tracestate ? { traceparent, tracestate: trace.tracestate } : { traceparent };
}

/** The holder's side: the trace a command handed over (none, or an invalid one: the holder's own). */
export function traceHandedOver(fields: Record<string, unknown>): RunTrace | undefined {
  if (typeof fields.traceparent !== 'string') return undefined;
  const parsed = parseTraceParent(fields.traceparent);
  if ('invalid' in parsed) return undefined;
  return { ...parsed, tracestate: validTraceState(typeof fields.tracestate === 'string' ? fields.tracestate : undefined), source: 'TRACEPARENT' };
}

/** The running command's trace; outside a command (the library), one new trace made on first use. */
export function currentRunTrace(): RunTrace {
  const served = servedTrace.getStore();
  if (served) return served;
  const state = runTrace();
  return (state.current ??= { traceId: randomHexId(16), parentId: randomHexId(8), flags: NEW_TRACE_FLAGS, source: 'new' });
}

/**
 * Gives each request of the running command a span id of its own (sent as its traceparent's parent
 * id), spans exported or not: `mcp conform --trace` then knows which request a server's span
 * continues. With --otlp the recorder already does.
 */
export function useRequestSpanIds(): RunTrace {
  const trace = currentRunTrace();
  trace.recorder ??= {
    traceId: trace.traceId,
    rootSpanId: trace.parentId,
    flags: trace.flags,
    startRequest: () => ({ spanId: randomHexId(8), end: () => {} }),
    finish: async () => undefined,
  };
  return trace;
}

/** A new trace, or a caller's continued, with no spans recorded. */
export function plainRunTrace(caller: { traceId: string; parentId: string; flags: string } | undefined, tracestate: string | undefined, source: RunTrace['source']): RunTrace {
  if (!caller) return { traceId: randomHexId(16), parentId: randomHexId(8), flags: NEW_TRACE_FLAGS, tracestate, source: 'new' };
  return { ...caller, tracestate, source };
}

/**
 * The trace context a request carries in `params._meta` (SEP-414; OpenTelemetry semconv for MCP,
 * docs/gen-ai/mcp.md "Context propagation": unprefixed `traceparent` and `tracestate`), and its span
 * when spans are recorded: then the request's own span is the server's parent (the client span "becomes
 * a parent of the MCP server span regardless of transport used"); else the command's parent is sent
 * unchanged (a caller's span, so the server's spans hang under it).
 */
export function traceRequest(info: RequestInfo): { meta: { traceparent: string; tracestate?: string }; span?: RequestSpan } {
  const trace = currentRunTrace();
  const span = trace.recorder?.startRequest(info);
  const traceparent = span ? formatTraceParent(trace.traceId, span.spanId, trace.recorder!.flags) : formatTraceParent(trace.traceId, trace.parentId, trace.flags);
  return { meta: trace.tracestate ? { traceparent, tracestate: trace.tracestate } : { traceparent }, span };
}

/**
 * A JSON-RPC request with trace context added to its `params._meta`: toolrun's client never sets one
 * itself, so one already there (a client's, passed through `mcp tap`) is kept as it is. Anything that
 * is not a request (a notification, a response) is returned unchanged.
 */
export function withTraceContext<M>(message: M, info: Omit<RequestInfo, 'method' | 'id' | 'params'> = {}): { message: M; span?: RequestSpan } {
  const request = message as { id?: unknown; method?: unknown; params?: Record<string, unknown> & { _meta?: Record<string, unknown> } };
  if (typeof request.method !== 'string' || (typeof request.id !== 'string' && typeof request.id !== 'number')) return { message };
  if (request.params?._meta?.traceparent !== undefined) return { message };
  const { meta, span } = traceRequest({ ...info, method: request.method, id: request.id, params: request.params });
  const params = { ...request.params, _meta: { ...request.params?._meta, ...meta } };
  return { message: { ...request, params } as M, span };
}
