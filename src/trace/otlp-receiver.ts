import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span a server exported, as far as a trace-continuation check needs it. */
export interface ExportedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer (0 unspecified). */
  kind: number;
  /** The span's string attributes (e.g. mcp.method.name). */
  attributes: Record<string, string>;
}

/** At most this much of one export is read; more is refused with 413. */
const MAX_EXPORT_BYTES = 16 * 1024 * 1024;
/** At most this many spans are kept for a run. */
const MAX_SPANS = 10_000;

/**
 * An OTLP/HTTP trace receiver in toolrun's own process, for `mcp conform --trace` (SPEC §23): it
 * accepts `POST /v1/traces` in both OTLP/HTTP encodings — JSON (ids as hex strings) and binary
 * protobuf (`application/x-protobuf`, the default of the Python and Go SDKs), gzip or not
 * (OpenTelemetry "OTLP Specification", OTLP/HTTP: request and response) — and keeps the spans.
 */
export class OtlpReceiver {
  readonly spans: ExportedSpan[] = [];
  readonly #server: Server;
  readonly #waiters = new Set<() => void>();
  /** Exports that could not be read, and why. */
  readonly refused: string[] = [];

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(port = 0): Promise<OtlpReceiver> {
    const server = createServer();
    const receiver = new OtlpReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_EXPORT_BYTES) chunks.push(chunk);
      });
      req.on('end', () => {
        if (req.method !== 'POST' || !(req.url ?? '').split('?')[0]!.endsWith('/v1/traces')) return void res.writeHead(404).end();
        if (size > MAX_EXPORT_BYTES) return void res.writeHead(413).end();
        const type = String(req.headers['content-type'] ?? '');
        try {
          let body: Buffer = Buffer.concat(chunks);
          // A server under test may be hostile: 16 MB of gzip can hold gigabytes (a gzip bomb), so what it inflates to is bounded too.
          if (String(req.headers['content-encoding'] ?? '').toLowerCase() === 'gzip') body = inflateBounded(body);
          const spans = type.includes('json') ? spansOfJson(JSON.parse(body.toString('utf8'))) : spansOfProtobuf(body);
          receiver.spans.push(...spans.slice(0, Math.max(0, MAX_SPANS - receiver.spans.length)));
          res.writeHead(200, { 'content-type': type.includes('json') ? 'application/json' : 'application/x-protobuf' }).end(type.includes('json') ? '{}' : '');
        } catch (error) {
          receiver.refused.push(error instanceof Error ? error.message : String(error));
          res.writeHead(400).end();
        }
        for (const wake of receiver.#waiters) wake();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return receiver;
  }

  /** The base URL a server's OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Resolves when a span arrives (or at once if some have), or after `ms`. */
  waitForSpans(ms: number): Promise<void> {
    if (this.spans.length > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.closeAllConnections();
      this.#server.close(() => resolve());
    });
  }
}

type JsonValue = { stringValue?: unknown };
type JsonSpan = { traceId?: unknown; spanId?: unknown; parentSpanId?: unknown; name?: unknown; kind?: unknown; attributes?: Array<{ key?: unknown; value?: JsonValue }> };

/** OTLP/JSON: trace and span ids are hex strings, not base64 (OTLP "JSON Protobuf Encoding"). */
function spansOfJson(body: { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: JsonSpan[] }> }> }): ExportedSpan[] {
  const spans: ExportedSpan[] = [];
  for (const resource of body.resourceSpans ?? []) {
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        const attributes: Record<string, string> = {};
        for (const attribute of span.attributes ?? [])
          if (typeof attribute.key === 'string' && typeof attribute.value?.stringValue === 'string') attributes[attribute.key] = attribute.value.stringValue;
        const kind = typeof span.kind === 'number' ? span.kind : Number.parseInt(String(span.kind ?? '0').replace(/^SPAN_KIND_/, ''), 10);
        spans.push({
          traceId: String(span.traceId ?? '').toLowerCase(),
          spanId: String(span.spanId ?? '').toLowerCase(),
          parentSpanId: String(span.parentSpanId ?? '').toLowerCase(),
          name: String(span.name ?? ''),
          kind: Number.isFinite(kind) ? kind : 0,
          attributes,
        });
      }
    }
  }
  return spans;
}

/** One protobuf field: its number and its value (a number for varints, bytes for length-delimited). */
type Field = { number: number; value: number | Buffer };

/** The fields of one protobuf message (wire types 0, 1, 2 and 5; groups are refused). */
function* fieldsOf(buffer: Buffer): Generator<Field> {
  let at = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (at >= buffer.length) throw new Error('a truncated protobuf varint');
      const byte = buffer[at++]!;
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7;
      if (shift > 63) throw new Error('a protobuf varint over 64 bits');
    }
  };
  while (at < buffer.length) {
    const key = varint();
    const number = Math.floor(key / 8);
    const wireType = key % 8;
    if (wireType === 0) yield { number, value: varint() };
    else if (wireType === 1 || wireType === 5) {
      const size = wireType === 1 ? 8 : 4;
      if (at + size > buffer.length) throw new Error('a truncated protobuf field');
      yield { number, value: buffer.subarray(at, (at += size)) };
    } else if (wireType === 2) {
      const length = varint();
      if (at + length > buffer.length) throw new Error('a truncated protobuf field');
      yield { number, value: buffer.subarray(at, (at += length)) };
    } else throw new Error(`protobuf wire type ${wireType} is not one OTLP uses`);
  }
}

function* messagesAt(buffer: Buffer, number: number): Generator<Buffer> {
  for (const field of fieldsOf(buffer)) if (field.number === number && Buffer.isBuffer(field.value)) yield field.value;
}

/**
 * OTLP/protobuf (opentelemetry-proto trace.proto): ExportTraceServiceRequest.resource_spans = 1 →
 * ResourceSpans.scope_spans = 2 → ScopeSpans.spans = 2 → Span: trace_id = 1, span_id = 2,
 * parent_span_id = 4, name = 5, kind = 6, attributes = 9 (KeyValue: key = 1, value = 2; AnyValue:
 * string_value = 1).
 */
function spansOfProtobuf(body: Buffer): ExportedSpan[] {
  const spans: ExportedSpan[] = [];
  for (const resource of messagesAt(body, 1)) {
    for (const scope of messagesAt(resource, 2)) {
      for (const encoded of messagesAt(scope, 2)) {
        const span: ExportedSpan = { traceId: '', spanId: '', parentSpanId: '', name: '', kind: 0, attributes: {} };
        for (const field of fieldsOf(encoded)) {
          if (field.number === 1 && Buffer.isBuffer(field.value)) span.traceId = field.value.toString('hex');
          else if (field.number === 2 && Buffer.isBuffer(field.value)) span.spanId = field.value.toString('hex');
          else if (field.number === 4 && Buffer.isBuffer(field.value)) span.parentSpanId = field.value.toString('hex');
          else if (field.number === 5 && Buffer.isBuffer(field.value)) span.name = field.value.toString('utf8');
          else if (field.number === 6 && typeof field.value === 'number') span.kind = field.value;
          else if (field.number === 9 && Buffer.isBuffer(field.value)) {
            let key: string | undefined;
            let value: string | undefined;
            for (const part of fieldsOf(field.value)) {
              if (part.number === 1 && Buffer.isBuffer(part.value)) key = part.value.toString('utf8');
              else if (part.number === 2 && Buffer.isBuffer(part.value)) for (const any of fieldsOf(part.value)) if (any.number === 1 && Buffer.isBuffer(any.value)) value = any.value.toString('utf8');
            }
            if (key !== undefined && value !== undefined) span.attributes[key] = value;
          }
        }
        spans.push(span);
      }
    }
  }
  return spans;
}

/** A gzipped export inflated, at most MAX_EXPORT_BYTES of it; past that an Error says so. */
function inflateBounded(body: Buffer): Buffer {
  try {
    return gunzipSync(body, { maxOutputLength: MAX_EXPORT_BYTES });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new Error(`a gzipped export inflates past ${MAX_EXPORT_BYTES} bytes: refused`, { cause: error });
    throw error;
  }
}
