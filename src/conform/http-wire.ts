import type { RemoteServerSpec } from '../config/resolve-server.js';
import { remoteAuth } from '../auth/remote-auth.js';
import { remoteTarget } from '../mcp/transports/remote-transport.js';
import type { ProbeWire, WireExtra } from './probe-channel.js';
import { MessageTooLargeError } from '../http/capped-body.js';
import { remoteFetch } from '../http/remote-fetch.js';
import { maskThenCut } from '../secrets/mask-secrets.js';

/** Methods whose 2026-07-28 request carries `Mcp-Name` (Streamable HTTP § Standard Headers), and from which param. */
const NAME_HEADER_SOURCE: Record<string, 'name' | 'uri'> = { 'tools/call': 'name', 'resources/read': 'uri', 'prompts/get': 'name' };

/**
 * A Streamable HTTP server under test, spoken to with plain fetch: each message is one POST, and
 * whatever comes back (a JSON body, or an SSE stream of messages) is handed over as it arrives. The
 * 2025 family's `Mcp-Session-Id` is kept and ended with DELETE; 2026-07-28's headers (`Mcp-Method`,
 * `Mcp-Name`) are added per request. The config's headers and stored OAuth tokens go with every request.
 */
export class HttpWire implements ProbeWire {
  readonly transport = 'http' as const;
  onMessage?: (message: unknown, extra: WireExtra) => void;
  onClose?: (reason: string) => void;
  sessionId: string | undefined;
  readonly #url: URL;
  readonly #headers: Record<string, string>;
  readonly #fetch: typeof fetch;
  readonly #abort = new AbortController();
  #reading = true;
  /** The POSTs of requests still being read, by request id (abortRequest closes one). */
  readonly #inFlight = new Map<number, AbortController>();
  /**
   * `mcp conform --trace`: the `traceparent` header of a POST, made apart from the one in its message's
   * `_meta` (the HTTP request's own span), so a server whose MCP span follows the header is caught.
   */
  transportTraceparent?: () => string;

  constructor(spec: RemoteServerSpec) {
    const { url, headers } = remoteTarget(spec);
    this.#url = url;
    this.#headers = headers;
    const auth = remoteAuth(spec, headers);
    // Redirects stay within the entry's origin (remote-fetch.ts): its headers go nowhere else.
    this.#fetch = auth ? auth.wrapFetch(remoteFetch) : remoteFetch;
  }

  async send(message: Record<string, unknown>, context: { method?: string; protocolVersion: string; era: 'legacy' | 'modern' }): Promise<void> {
    const headers: Record<string, string> = { ...this.#headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    // 2025-06-18 and later carry the negotiated revision on every request after initialize.
    if (context.method !== 'initialize') headers['mcp-protocol-version'] = context.protocolVersion;
    if (this.sessionId && context.era === 'legacy') headers['mcp-session-id'] = this.sessionId;
    if (context.era === 'modern' && context.method) {
      headers['mcp-method'] = context.method;
      const source = NAME_HEADER_SOURCE[context.method];
      const value = source && (message.params as Record<string, unknown> | undefined)?.[source];
      if (typeof value === 'string') headers['mcp-name'] = headerSafe(value);
    }
    if (this.transportTraceparent && (message.params as { _meta?: { traceparent?: unknown } } | undefined)?._meta?.traceparent !== undefined) headers.traceparent = this.transportTraceparent();
    const requestId = typeof message.id === 'number' && message.method !== undefined ? message.id : undefined;
    const own = new AbortController();
    if (requestId !== undefined) this.#inFlight.set(requestId, own);
    try {
      let response: Response;
      try {
        response = await this.#fetch(this.#url, { method: 'POST', headers, body: JSON.stringify(message), signal: AbortSignal.any([this.#abort.signal, own.signal]) });
      } catch (error) {
        throw new Error(`the POST failed: ${describeFetchError(error)}`, { cause: error });
      }
      const session = response.headers.get('mcp-session-id');
      if (session && context.era === 'legacy') this.sessionId = session;
      await this.#read(response, requestId, own.signal);
    } finally {
      if (requestId !== undefined) this.#inFlight.delete(requestId);
    }
  }

  abortRequest(id: number): void {
    this.#inFlight.get(id)?.abort();
  }

  stopReading(): void {
    this.#reading = false;
    this.#abort.abort();
  }

  async close(): Promise<void> {
    const sessionId = this.sessionId;
    this.sessionId = undefined;
    if (sessionId && this.#reading) {
      await this.#fetch(this.#url, { method: 'DELETE', headers: { ...this.#headers, 'mcp-session-id': sessionId }, signal: AbortSignal.timeout(2000) })
        .then((response) => response.body?.cancel())
        .catch(() => {});
    }
    this.#abort.abort();
  }

  /** A JSON body, an SSE stream, nothing (202), or a refusal that is not JSON-RPC (thrown: the request is unanswered). */
  async #read(response: Response, requestId: number | undefined, aborted: AbortSignal): Promise<void> {
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream') && response.body) return this.#readEvents(response.body, aborted);
    const text = await response.text().catch((error: unknown) => {
      // Over the message limit (capped-body.ts): the request is unanswered, and the reason is this.
      if (error instanceof MessageTooLargeError) throw error;
      return '';
    });
    if (text.trim() === '') {
      if (response.ok) return;
      throw new Error(`HTTP ${response.status} ${response.statusText} with no JSON-RPC answer`.trim());
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}: ${maskThenCut(text, 120)}`);
      this.onMessage?.(undefined, { raw: text, bytes: text.length });
      return;
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) this.onMessage?.(message, { bytes: text.length, answersId: requestId });
  }

  async #readEvents(body: ReadableStream<Uint8Array>, aborted: AbortSignal): Promise<void> {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    try {
      while (this.#reading && !aborted.aborted) {
        const { value, done } = await reader.read();
        if (done) break;
        buffered += value;
        // Events end with a blank line; their data lines are joined with '\n' (the SSE rules).
        let end: number;
        while ((end = buffered.search(/\r?\n\r?\n/)) !== -1) {
          const event = buffered.slice(0, end);
          buffered = buffered.slice(end).replace(/^\r?\n\r?\n/, '');
          const data = event
            .split(/\r?\n/)
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).replace(/^ /, ''))
            .join('\n');
          if (data === '') continue;
          let message: unknown;
          try {
            message = JSON.parse(data);
          } catch {
            this.onMessage?.(undefined, { raw: data, bytes: data.length });
            continue;
          }
          this.onMessage?.(message, { bytes: data.length });
        }
      }
    } catch (error) {
      // An event over the message limit ends the stream: the request it answered is unanswered, for this reason.
      if (error instanceof MessageTooLargeError) throw error;
      // Aborted (the run ended or a flood was cut): what arrived was handed over.
    } finally {
      await reader.cancel().catch(() => {});
    }
  }
}

/** A header value as the spec wants it: plain printable ASCII as is, anything else base64 in its sentinel. */
function headerSafe(value: string): string {
  return /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
