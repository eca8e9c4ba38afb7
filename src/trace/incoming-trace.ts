import { parseTraceParent, validTraceState } from './trace-context.js';

/**
 * The trace context a client sent with a request to `toolrun serve` (`params._meta.traceparent` and
 * `tracestate`), to continue upstream: a gateway that started a trace of its own would cut the
 * client's trace at each hop (the semantic conventions for MCP: the server span SHOULD use the
 * context in `params._meta` as its parent; serve's upstream request is that hop's client span).
 * None, or an invalid one: undefined, and the upstream request carries serve's own trace.
 */
export function incomingTrace(meta: unknown): { traceparent: string; tracestate?: string } | undefined {
  const fields = meta as { traceparent?: unknown; tracestate?: unknown } | undefined;
  if (typeof fields?.traceparent !== 'string') return undefined;
  const parsed = parseTraceParent(fields.traceparent);
  if ('invalid' in parsed) return undefined;
  const traceparent = `00-${parsed.traceId}-${parsed.parentId}-${parsed.flags}`;
  const tracestate = validTraceState(typeof fields.tracestate === 'string' ? fields.tracestate : undefined);
  return tracestate ? { traceparent, tracestate } : { traceparent };
}
