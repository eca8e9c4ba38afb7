import type { Readable } from 'node:stream';
import { classifyLine } from '../scan/classify-line.js';
import type { FindingKind } from '../scan/finding-kinds.js';
import { recordedBytes, recordingReader, type RecordedLine, type RecordingHeader } from './recording.js';

/** One thing that happened in a recorded session, in the order it happened. */
export type TimelineEvent =
  /** `traceparent`: the W3C trace context the request carried in `params._meta`, as recorded (SPEC §23). */
  | { t: number; kind: 'request'; from: 'client' | 'server'; id: string | number; method: string; traceparent?: string }
  | { t: number; kind: 'response'; from: 'client' | 'server'; id: string | number; method?: string; latency_ms?: number; error?: { code?: number; message?: string }; era_probe?: true }
  | { t: number; kind: 'notification'; from: 'client' | 'server'; method: string }
  | { t: number; kind: 'stderr'; text: string; line: number }
  | { t: number; kind: 'pollution'; text: string; findings: FindingKind[]; line: number };

export interface Timeline {
  header: RecordingHeader;
  events: TimelineEvent[];
  summary: { requests: number; errors: number; unanswered: number; notifications: number; stderr_lines: number; polluting_lines: number; slowest?: { method: string; latency_ms: number } };
}

/**
 * Reads a recording (SPEC §11) into a timeline: each request paired with its response and latency,
 * notifications, errors, stderr lines and polluting stdout lines (SPEC §11 `mcp show`).
 */
export async function readTimeline(stream: Readable): Promise<Timeline> {
  let header: RecordingHeader | undefined;
  const events: TimelineEvent[] = [];
  // Requests waiting for their response, per direction of the request: id → its event.
  const pending = { client: new Map<string, { t: number; method: string }>(), server: new Map<string, { t: number; method: string }>() };
  // Line numbers of the server's own streams (1-based), as check-stdout reports them: `stdout line 7`.
  const lines = { recv: 0, stderr: 0, send: 0 };
  const reader = recordingReader(
    (entry) => {
      lines[entry.dir]++;
      addEntry(entry, events, pending, lines[entry.dir]);
    },
    (first) => (header = first),
  );
  for await (const chunk of stream) reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  reader.end();
  return { header: header!, events, summary: summarize(events, pending.client.size + pending.server.size) };
}

function addEntry(entry: RecordedLine, events: TimelineEvent[], pending: Record<'client' | 'server', Map<string, { t: number; method: string }>>, line: number): void {
  const t = entry.t;
  const bytes = recordedBytes(entry);
  const text = bytes.toString('utf8').replace(/\r?\n$/, '');
  if (entry.dir === 'stderr') {
    events.push({ t, kind: 'stderr', text, line });
    return;
  }
  if (entry.dir === 'recv') {
    const verdict = classifyLine(entry.eol === false ? bytes : bytes.subarray(0, -1), entry.eol !== false, false);
    if (!verdict.isMessage) {
      events.push({ t, kind: 'pollution', text, findings: verdict.kinds, line });
      return;
    }
  }
  let message: { id?: string | number; method?: string; error?: { code?: number; message?: string }; params?: { _meta?: { traceparent?: unknown } } };
  try {
    message = JSON.parse(text) as typeof message;
  } catch {
    return;
  }
  const from = entry.dir === 'send' ? 'client' : 'server';
  const hasId = message.id !== undefined && message.id !== null;
  if (message.method && hasId) {
    pending[from].set(String(message.id), { t, method: message.method });
    const traceparent = message.params?._meta?.traceparent;
    events.push({ t, kind: 'request', from, id: message.id!, method: message.method, ...(typeof traceparent === 'string' ? { traceparent: traceparent.slice(0, 128) } : {}) });
  } else if (message.method) events.push({ t, kind: 'notification', from, method: message.method });
  else if (hasId) {
    // A response answers a request from the other side.
    const asked = pending[from === 'client' ? 'server' : 'client'];
    const request = asked.get(String(message.id));
    asked.delete(String(message.id));
    events.push({
      t,
      kind: 'response',
      from,
      id: message.id!,
      ...(request ? { method: request.method, latency_ms: Math.round((t - request.t) * 1000) / 1000 } : {}),
      ...(message.error ? { error: { code: message.error.code, message: message.error.message } } : {}),
      ...(message.error && isEraProbe(from, request?.method, message.id!) ? { era_probe: true as const } : {}),
    });
  }
}

/**
 * toolrun's own `server/discover` (id `toolrun-discover-N`), sent first to learn the server's protocol
 * era: a 2025 server refuses it, as it should, so the refusal is not the server's error.
 */
function isEraProbe(from: 'client' | 'server', method: string | undefined, id: string | number): boolean {
  return from === 'server' && method === 'server/discover' && String(id).startsWith('toolrun-discover-');
}

function summarize(events: TimelineEvent[], unanswered: number): Timeline['summary'] {
  let slowest: { method: string; latency_ms: number } | undefined;
  for (const event of events) {
    if (event.kind === 'response' && event.latency_ms !== undefined && event.method && (!slowest || event.latency_ms > slowest.latency_ms))
      slowest = { method: event.method, latency_ms: event.latency_ms };
  }
  return {
    requests: events.filter((event) => event.kind === 'request').length,
    errors: events.filter((event) => event.kind === 'response' && event.error && !event.era_probe).length,
    unanswered,
    notifications: events.filter((event) => event.kind === 'notification').length,
    stderr_lines: events.filter((event) => event.kind === 'stderr').length,
    polluting_lines: events.filter((event) => event.kind === 'pollution').length,
    ...(slowest ? { slowest } : {}),
  };
}
