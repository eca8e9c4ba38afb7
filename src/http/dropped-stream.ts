import { connect } from 'node:net';
import { transportFaultAnswers } from '../protocol/transport-fault.js';
import { requestsIn } from './remote-fetch.js';

/**
 * How the server behind an HTTP transport was lost: its connection dropped while it owed answers
 * (`dropped`: the process died mid-call), or a request of the open session found nothing listening
 * (`refused`). The reason is one line: "the server closed the connection before answering (other side closed)".
 */
export interface RemoteLoss {
  kind: 'dropped' | 'refused';
  reason: string;
}

type OnLost = (lost: RemoteLoss) => void;

/** The requests whose answers a dropped connection fails at once; the handshake's own are left to the connect attempt's diagnosis. */
const HANDSHAKE_METHODS = new Set(['initialize', 'server/discover']);

/** The ids of the requests a POST body carries (one message or a batch), but the handshake's. */
export function callIdsOf(body: RequestInit['body']): Array<string | number> {
  return requestsIn(body)
    .filter((request) => !HANDSHAKE_METHODS.has(request.method))
    .map((request) => request.id);
}

/** Node's fetch says "fetch failed" or "terminated"; the cause says what happened to the socket. */
function socketReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  const detail = typeof cause?.message === 'string' && cause.message ? cause.message : String((error as Error)?.message ?? error);
  return typeof cause?.code === 'string' && !detail.includes(cause.code) ? `${detail}, ${cause.code}` : detail;
}

const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const SOCKET_DROPS = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { cause?: { code?: unknown }; code?: unknown })?.cause?.code ?? (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A POST carrying requests failed before an answer arrived. When the socket was dropped (the server
 * died after taking the request: Node's "fetch failed", cause "other side closed"), the answer is
 * a transport-fault answer to each request, saying so: the SDK fails the calls with that reason
 * instead of "fetch failed". A connection refused is noted and rethrown: the server is not there.
 */
export function answerFailedPost(error: unknown, ids: ReadonlyArray<string | number>, onLost: OnLost): Response {
  const code = codeOf(error);
  if (ids.length > 0 && code && CONNECT_FAILURES.has(code)) onLost({ kind: 'refused', reason: `nothing answers at the server's address any more (${socketReason(error)})` });
  if (ids.length === 0 || !code || !SOCKET_DROPS.has(code)) throw error;
  const reason = `the server closed the connection before answering (${socketReason(error)})`;
  onLost({ kind: 'dropped', reason });
  return new Response(JSON.stringify(transportFaultAnswers(ids, reason)), { status: 200, headers: { 'content-type': 'application/json' } });
}

/**
 * The event stream answering a POST, watched for the connection dropping (the stream errors: not
 * the clean end a server may choose, SEP-1699) while requests it carried are unanswered. The SDK
 * would take that for a disconnection and leave the requests to their timeout (30 s by default),
 * or, when the stream carried event ids, try to resume it. The requests are failed at once with a
 * transport-fault answer saying why, as a stdio server's exit fails its calls, when the stream
 * cannot be resumed (no event id) or nothing listens at the server's address any more; a stream
 * whose server still accepts connections is left to the SDK to resume.
 * Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
 * (a stream without event ids cannot be resumed: a drop fails its requests at once).
 */
export function watchForDrop(response: Response, url: URL, ids: ReadonlyArray<string | number>, onLost: OnLost, onResumeLeft?: OnResumeLeft): Response {
  if (!response.body || ids.length === 0 || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return response;
  const waiting = new Set(ids);
  let resumable = false;
  const decoder = new TextDecoder();
  let text = '';
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (waiting.size === 0) return controller.error(error);
        if (resumable && (await stillListening(url))) {
          // Left to the SDK to resume; if its resumption then finds nothing listening (the server was
          // still exiting when it was probed), answerFailedResume fails these requests then.
          onResumeLeft?.({ ids: [...waiting], reason: socketReason(error) });
          return controller.error(error);
        }
        const reason = `the server closed the connection before answering (${socketReason(error)})${resumable ? ' and no longer accepts connections' : ''}`;
        onLost({ kind: 'dropped', reason });
        // A CR alone may have ended the last event passed on: the fault answers start on a line of their own.
        const events = transportFaultAnswers([...waiting], reason).map((answer) => `\nevent: message\ndata: ${JSON.stringify(answer)}\n\n`);
        controller.enqueue(new TextEncoder().encode(events.join('')));
        return controller.close();
      }
      if (chunk.done) return controller.close();
      // Once every request is answered, the rest passes unread.
      if (waiting.size > 0) text = noteEvents(text + decoder.decode(chunk.value, { stream: true }));
      controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  /** Reads the whole events in `buffered`: their ids make the stream resumable, their answers are no longer waited for. Returns the rest. */
  function noteEvents(buffered: string): string {
    const events = buffered.split(/\r\n\r\n|\n\n|\r\r/);
    const rest = events.pop() ?? '';
    for (const event of events) {
      const lines = event.split(/\r\n|\n|\r/);
      if (lines.some((line) => line.startsWith('id:') && line.slice(3).trim() !== '')) resumable = true;
      const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
      if (data.length === 0) continue;
      try {
        const message = JSON.parse(data.join('\n')) as { id?: string | number; method?: unknown } | Array<{ id?: string | number; method?: unknown }>;
        for (const one of Array.isArray(message) ? message : [message]) if (one?.method === undefined && one?.id !== undefined) waiting.delete(one.id);
      } catch {
        // Not JSON: the SDK reports it.
      }
    }
    return rest;
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The requests a dropped stream still owed when it was left to the SDK to resume, and how it dropped. */
export interface LeftToResume {
  ids: Array<string | number>;
  reason: string;
}

type OnResumeLeft = (left: LeftToResume) => void;

/**
 * The SDK's resumption of a dropped stream (a GET with Last-Event-ID) failed. When nothing listens
 * at the server's address any more, the requests the stream owed are answered with a transport fault
 * on an event stream, as watchForDrop answers them when the server is gone at the drop: the SDK
 * would retry the resumption and give up without failing them, leaving them to their timeout. A
 * server that was still exiting when the drop was probed is the case this catches. Anything else
 * is rethrown for the SDK to retry.
 */
export function answerFailedResume(error: unknown, left: LeftToResume | undefined, onLost: OnLost): Response {
  const code = codeOf(error);
  if (!left || left.ids.length === 0 || !code || !CONNECT_FAILURES.has(code)) throw error;
  const reason = `the server closed the connection before answering (${left.reason}) and no longer accepts connections`;
  onLost({ kind: 'dropped', reason });
  const events = transportFaultAnswers(left.ids, reason).map((answer) => `event: message\ndata: ${JSON.stringify(answer)}\n\n`);
  return new Response(events.join(''), { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

/** Whether something still accepts a TCP connection at the URL's host and port (within a second). */
function stillListening(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port });
    const done = (listening: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(listening);
    };
    const timer = setTimeout(() => done(true), 1000);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
