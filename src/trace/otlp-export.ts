import { context as otelContext, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace as otelTrace, TraceFlags, type Attributes, type Span } from '@opentelemetry/api';
import { BasicTracerProvider, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { readVersion } from '../version.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import type { RequestInfo, RequestOutcome, RequestSpan, SpanRecorder } from './run-trace.js';

/**
 * The command's spans, recorded by the OpenTelemetry JS SDK and exported over OTLP/HTTP (JSON) when
 * the command ends (loaded only with --otlp: start-run-trace.ts). Names and attributes follow the
 * OpenTelemetry semantic conventions for MCP (open-telemetry/semantic-conventions-genai,
 * docs/gen-ai/mcp.md, "Client" span): name `{mcp.method.name} {target}` (target: the tool's or
 * prompt's name; never a resource URI, "to avoid high cardinality span names"), kind CLIENT,
 * `mcp.method.name`, `jsonrpc.request.id`, `gen_ai.tool.name` + `gen_ai.operation.name=execute_tool`,
 * `gen_ai.prompt.name`, `mcp.resource.uri`, `mcp.session.id`, `mcp.protocol.version`,
 * `network.transport` (`pipe` for stdio, `tcp` for HTTP), `server.address`/`server.port`; on failure
 * `error.type` (the JSON-RPC error code, or `tool_error` for a CallToolResult with isError),
 * `rpc.response.status_code`, and status ERROR with the error's message.
 */

/** How long the command's exit may wait for its spans to reach the collector (a collector that is down costs this, once). */
export const OTLP_FLUSH_TIMEOUT_MS = 3000;

/** How often ended spans are exported while the command runs (the batch span processor's default delay). */
const EXPORT_INTERVAL_MS = 5000;

/** At most this many ended spans wait for the export at the end; more are exported as they come. */
const BATCH_SIZE = 512;

export interface OtlpRecorderOptions {
  url: string;
  headers: Record<string, string>;
  caller: { traceId: string; parentId: string; flags: string } | undefined;
  tracestate: string | undefined;
  commandName: string;
  /** How often ended spans are exported while the command runs (default EXPORT_INTERVAL_MS). */
  exportIntervalMs?: number;
}

export async function startOtlpRecorder(options: OtlpRecorderOptions): Promise<SpanRecorder> {
  const exporter = new OTLPTraceExporter({ url: options.url, headers: options.headers, timeoutMillis: OTLP_FLUSH_TIMEOUT_MS });
  const ended: ReadableSpan[] = [];
  const exports = new Set<Promise<void>>();
  const failures: string[] = [];
  const exportNow = () => {
    const batch = ended.splice(0);
    if (batch.length === 0) return;
    const exported: Promise<void> = exportSpans(exporter, batch, options.url).then((failure) => {
      if (failure) failures.push(failure);
      exports.delete(exported);
    });
    exports.add(exported);
  };
  // A command that runs for long (serve, resources watch, shell) exports as it goes, not only at its end.
  const interval = setInterval(exportNow, options.exportIntervalMs ?? EXPORT_INTERVAL_MS).unref();
  const processor: SpanProcessor = {
    onStart: () => {},
    onEnd: (span) => {
      ended.push(span);
      if (ended.length >= BATCH_SIZE) exportNow();
    },
    forceFlush: async () => exportNow(),
    shutdown: async () => exportNow(),
  };
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'toolrun', 'service.version': readVersion() }),
    spanProcessors: [processor],
  });
  const tracer = provider.getTracer('toolrun', readVersion());
  const { caller } = options;
  const parent = caller
    ? otelTrace.setSpanContext(ROOT_CONTEXT, {
        traceId: caller.traceId,
        spanId: caller.parentId,
        traceFlags: Number.parseInt(caller.flags, 16) & TraceFlags.SAMPLED,
        isRemote: true,
      })
    : ROOT_CONTEXT;
  const root = tracer.startSpan(options.commandName, { kind: SpanKind.INTERNAL }, parent);
  const rootContext = otelTrace.setSpan(parent, root);
  const rootIds = root.spanContext();
  return {
    traceId: rootIds.traceId,
    rootSpanId: rootIds.spanId,
    flags: (rootIds.traceFlags & TraceFlags.SAMPLED ? 1 : 0).toString(16).padStart(2, '0'),
    startRequest: (info) =>
      requestSpan(
        otelContext.with(rootContext, () => tracer.startSpan(spanName(info), { kind: SpanKind.CLIENT, attributes: requestAttributes(info) }, rootContext)),
        info,
      ),
    finish: async (exitCode) => {
      if (exitCode !== 0) root.setAttribute('process.exit.code', exitCode);
      root.end();
      clearInterval(interval);
      exportNow();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          failures.push(`no answer within ${OTLP_FLUSH_TIMEOUT_MS} ms`);
          resolve();
        }, OTLP_FLUSH_TIMEOUT_MS + 500);
      });
      await Promise.race([Promise.all([...exports]), timedOut]);
      clearTimeout(timer);
      void exporter.shutdown().catch(() => {});
      return failures[0] && `spans not exported to ${maskSecrets(options.url)}: ${failures[0]}`;
    },
  };
}

function spanName(info: RequestInfo): string {
  const target = info.method === 'tools/call' || info.method === 'prompts/get' ? info.params?.name : undefined;
  return typeof target === 'string' && target ? `${info.method} ${target}` : info.method;
}

function requestAttributes(info: RequestInfo): Attributes {
  const attributes: Attributes = { 'mcp.method.name': info.method, 'jsonrpc.request.id': String(info.id) };
  const name = info.params?.name;
  if (info.method === 'tools/call' && typeof name === 'string') Object.assign(attributes, { 'gen_ai.tool.name': name, 'gen_ai.operation.name': 'execute_tool' });
  if (info.method === 'prompts/get' && typeof name === 'string') attributes['gen_ai.prompt.name'] = name;
  const uri = info.params?.uri;
  if (info.method.startsWith('resources/') && typeof uri === 'string') attributes['mcp.resource.uri'] = uri;
  if (info.sessionId) attributes['mcp.session.id'] = info.sessionId;
  if (info.protocolVersion) attributes['mcp.protocol.version'] = info.protocolVersion;
  if (info.network) {
    attributes['network.transport'] = info.network.transport;
    if (info.network.transport === 'tcp') attributes['network.protocol.name'] = 'http';
    if (info.network.address) attributes['server.address'] = info.network.address;
    if (info.network.port !== undefined) attributes['server.port'] = info.network.port;
  }
  return attributes;
}

function requestSpan(span: Span, info: RequestInfo): RequestSpan {
  let open = true;
  return {
    spanId: span.spanContext().spanId,
    end: (outcome: RequestOutcome) => {
      if (!open) return;
      open = false;
      const failure = failureOf(info, outcome);
      if (failure) {
        span.setAttribute('error.type', failure.type);
        if (failure.code !== undefined) span.setAttribute('rpc.response.status_code', failure.code);
        span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
      }
      span.end();
    },
  };
}

/** error.type: "SHOULD be set to the string representation of the JSON-RPC error code"; `tool_error` for isError results. */
function failureOf(info: RequestInfo, outcome: RequestOutcome): { type: string; code?: string; message?: string } | undefined {
  if (outcome.error) {
    const code = outcome.error.code === undefined ? undefined : String(outcome.error.code);
    return { type: code ?? '_OTHER', code: typeof outcome.error.code === 'number' ? code : undefined, message: outcome.error.message };
  }
  const result = outcome.result as { isError?: unknown; content?: Array<{ type?: unknown; text?: unknown }> } | undefined;
  if (info.method === 'tools/call' && result?.isError === true) {
    const text = result.content?.find((item) => item.type === 'text' && typeof item.text === 'string')?.text as string | undefined;
    return { type: 'tool_error', message: text?.slice(0, 200) };
  }
  return undefined;
}

/** Exports one batch; resolves with why it failed, or undefined. */
function exportSpans(exporter: OTLPTraceExporter, spans: ReadableSpan[], url: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    try {
      exporter.export(spans, (result) => resolve(result.code === 0 ? undefined : describeExportError(result.error, url)));
    } catch (error) {
      resolve(describeExportError(error, url));
    }
  });
}

function describeExportError(error: unknown, url: string): string {
  const cause = (error as { cause?: { code?: unknown } })?.cause;
  const message = String((error as Error)?.message ?? error ?? 'export failed');
  const text = typeof cause?.code === 'string' && !message.includes(cause.code) ? `${message} (${cause.code})` : message;
  return maskSecrets(text.replaceAll(url, '').trim() || 'export failed');
}
