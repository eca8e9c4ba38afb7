import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP JSON export carries it, its attributes flattened to a record. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status?: { code?: number; message?: string };
  attributes: Record<string, string | number | boolean>;
  /** The resource's service.name. */
  service: string;
}

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpAttribute = { key: string; value: OtlpValue };

function flatten(attributes: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of attributes ?? []) out[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined) ?? value.boolValue ?? value.doubleValue ?? '';
  return out;
}

/**
 * An OTLP/HTTP collector for a test: POST /v1/traces with a JSON body (what the OpenTelemetry JS
 * exporter-trace-otlp-http sends), each span kept; `waitFor` resolves once a condition holds.
 */
export async function startOtlpReceiver(): Promise<{
  url: string;
  spans: ReceivedSpan[];
  contentTypes: string[];
  /** Each export's HTTP headers. */
  headers: Array<Record<string, string | string[] | undefined>>;
  waitFor(check: (spans: ReceivedSpan[]) => boolean): Promise<void>;
  stop(): Promise<void>;
}> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const headers: Array<Record<string, string | string[] | undefined>> = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      contentTypes.push(String(req.headers['content-type']));
      headers.push(req.headers);
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        resourceSpans?: Array<{ resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: Array<{ spans?: Array<Omit<ReceivedSpan, 'attributes' | 'service'> & { attributes?: OtlpAttribute[] }> }> }>;
      };
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(flatten(resourceSpans.resource?.attributes)['service.name'] ?? '');
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? []) spans.push({ ...span, parentSpanId: span.parentSpanId || undefined, attributes: flatten(span.attributes), service });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    spans,
    contentTypes,
    headers,
    waitFor: (check) =>
      new Promise<void>((resolve) => {
        if (check(spans)) return resolve();
        const wake = () => {
          if (!check(spans)) return;
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
      }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
