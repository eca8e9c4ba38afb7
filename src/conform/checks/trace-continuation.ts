import type { ConformCheck } from '../check-types.js';
import type { ExportedSpan } from '../../trace/otlp-receiver.js';

/** OTLP SpanKind SERVER. */
const SERVER_KIND = 2;

/**
 * `mcp conform --trace` (SPEC §23): a server that exports spans continues the trace toolrun's
 * requests carry. The OpenTelemetry semantic conventions for MCP (semantic-conventions-genai,
 * docs/gen-ai/mcp.md, "Context propagation"): "MCP server instrumentation SHOULD, by default, use
 * context extracted from MCP `params._meta` as a parent for MCP server span"; the 2026-07-28 revision
 * documents `traceparent` in `_meta` (SEP-414). Each request toolrun sent named a span of its own as
 * the parent, so a server's entry span must be in toolrun's trace with one of those as its parent. A
 * server that exports nothing is a skip, never a pass.
 */
export const traceContinuationCheck: ConformCheck = {
  id: 'trace.continues-client-trace',
  afterDeadline: true,
  title: "The server's spans continue the trace context of toolrun's requests",
  section: 'basic#_meta',
  async run({ trace }) {
    if (!trace) return { verdict: 'skip', message: 'run with --trace' };
    await trace.waitForSpans();
    const spans = trace.spans();
    if (spans.length === 0) {
      return {
        verdict: 'skip',
        message: `the server exported no spans${trace.refused.length ? ` (${trace.refused.length} export${trace.refused.length === 1 ? '' : 's'} could not be read: ${trace.refused[0]})` : ''}`,
      };
    }
    const sent = trace.sent();
    // The server's entry spans: those whose parent is not one of its own (a database call under its
    // tools/call span is judged through that span). Of those, its MCP or SERVER spans when it has any:
    // a span of the server's own start-up or background work continues nobody's trace.
    const exported = new Set(spans.map((span) => span.spanId));
    const entries = spans.filter((span) => !span.parentSpanId || !exported.has(span.parentSpanId));
    const mcpEntries = entries.filter((span) => span.kind === SERVER_KIND || span.attributes['mcp.method.name'] !== undefined);
    const judged = mcpEntries.length > 0 ? mcpEntries : entries;
    const broken = judged.flatMap((span) => {
      const problem = problemOf(span, trace.traceId, sent, trace.headerSpans);
      return problem ? [{ span, problem }] : [];
    });
    if (broken.length === 0) {
      const methods = [...new Set(judged.map((span) => sent.get(span.parentSpanId)?.method).filter(Boolean))];
      return { verdict: 'pass', message: `${judged.length} server span${judged.length === 1 ? '' : 's'} continue toolrun's trace ${trace.traceId}${methods.length ? ` (${methods.join(', ')})` : ''}` };
    }
    const first = broken[0]!;
    return {
      verdict: 'fail',
      message: `${broken.length} of ${judged.length} server span${judged.length === 1 ? '' : 's'} do not continue toolrun's trace; '${first.span.name}' ${first.problem} (use the traceparent in params._meta as the server span's parent)`,
      evidence: broken
        .slice(0, 10)
        .map(({ span, problem }) => ({ detail: `span '${span.name}' (trace ${span.traceId}, span ${span.spanId}${span.parentSpanId ? `, parent ${span.parentSpanId}` : ''}): ${problem}` })),
    };
  },
};

function problemOf(span: ExportedSpan, traceId: string, sent: Map<string, { method: string; id: unknown }>, headerSpans: Set<string>): string | undefined {
  if (span.traceId !== traceId) return `is in trace ${span.traceId || '(none)'}, not toolrun's ${traceId}${span.parentSpanId ? '' : ' (a trace of its own)'}`;
  if (!span.parentSpanId) return 'is a root span of toolrun’s trace, with no parent';
  // "MCP and underlying transport (such as HTTP) contexts are independent ... The MCP client span becomes
  // a parent of the MCP server span regardless of transport used" (semconv mcp.md): an HTTP server span
  // may continue the header; an MCP span (mcp.method.name is Required on it) must continue _meta.
  if (headerSpans.has(span.parentSpanId)) {
    return span.attributes['mcp.method.name'] === undefined ? undefined : "has the HTTP request's traceparent header as parent, not the traceparent in params._meta";
  }
  if (!sent.has(span.parentSpanId)) return `has parent ${span.parentSpanId}, a span toolrun never sent`;
  return undefined;
}
