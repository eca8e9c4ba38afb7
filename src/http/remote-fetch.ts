import { capResponseBody, messageLimitBytes } from './capped-body.js';
import { headersForHop } from './per-hop-headers.js';

/**
 * The fetch of every request toolrun makes to an MCP server over HTTP (both transports of both eras,
 * the `server/discover` probe, conform's wire), under the server entry's headers: an API key, a
 * bearer token, Basic auth. fetch's own redirect handling would carry those headers to wherever a
 * `Location` points (it drops only Authorization, and only on newer Node), so redirects are taken
 * here: one to the same origin is followed with the same headers (a trailing slash, a moved path);
 * one to another origin — another host, port or scheme, http→https included — is refused with
 * CrossOriginRedirectError, before anything is sent there (issue #31). Every answer's body is read
 * with the per-message cap of capped-body.ts.
 */
export const remoteFetch: typeof fetch = async (input, init) => capResponseBody(await fetchWithinOrigin(fetch, input, init), messageLimitBytes());

/**
 * remoteFetch for the SDK's Streamable HTTP transports: an event over the cap in the answer to a POST
 * ends that stream with a transport-fault answer to each request the POST carried (capped-body.ts),
 * since the SDK would leave them to their timeout.
 */
export const transportFetch: typeof fetch = async (input, init) => capResponseBody(await fetchWithinOrigin(fetch, input, init), messageLimitBytes(), { answerRequests: requestIdsOf(init?.body) });

/** The JSON-RPC requests in a POST's body (one message or a batch): their ids and methods. */
export function requestsIn(body: RequestInit['body']): Array<{ id: string | number; method: string }> {
  if (typeof body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((message: { id?: unknown; method?: unknown } | null) =>
    typeof message?.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number') ? [{ id: message.id, method: message.method }] : [],
  );
}

/** The ids of the JSON-RPC requests in a POST's body. */
function requestIdsOf(body: RequestInit['body']): Array<string | number> {
  return requestsIn(body).map((request) => request.id);
}

/**
 * A POST of MCP requests carries the trace context of its (first) request's `params._meta` as the W3C
 * `traceparent` and `tracestate` HTTP headers too (SPEC §23; W3C Trace Context §3: the headers of an
 * HTTP request), so an HTTP layer in front of the server (a gateway, a load balancer) continues the
 * same trace. A header already set is kept.
 */
function withTraceHeaders(init: RequestInit): RequestInit {
  if (init.method !== 'POST' || typeof init.body !== 'string' || !init.body.includes('"traceparent"')) return init;
  const meta = traceMetaIn(init.body);
  if (!meta) return init;
  const extra: Array<[string, string]> = [['traceparent', meta.traceparent]];
  if (meta.tracestate) extra.push(['tracestate', meta.tracestate]);
  const { headers } = init;
  if (headers instanceof Headers) {
    // Set in place: a DPoP proof's rebuilder is registered on this very object (per-hop-headers.ts).
    for (const [name, value] of extra) if (!headers.has(name)) headers.set(name, value);
    return init;
  }
  const entries: Array<[string, string]> = Array.isArray(headers) ? (headers as Array<[string, string]>) : Object.entries((headers ?? {}) as Record<string, string>);
  const present = new Set(entries.map(([name]) => name.toLowerCase()));
  return { ...init, headers: Object.fromEntries([...entries, ...extra.filter(([name]) => !present.has(name))]) };
}

function traceMetaIn(body: string): { traceparent: string; tracestate?: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const meta = (message as { params?: { _meta?: { traceparent?: unknown; tracestate?: unknown } } } | null)?.params?._meta;
    if (typeof meta?.traceparent === 'string') return { traceparent: meta.traceparent, tracestate: typeof meta.tracestate === 'string' ? meta.tracestate : undefined };
  }
  return undefined;
}

/** At most this many same-origin redirects in a row: a loop is a server fault, not a wait. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A redirect toolrun did not follow, because it leads off the server entry's origin. */
export class CrossOriginRedirectError extends Error {
  readonly status: number;
  readonly location: string;
  constructor(status: number, from: URL, to: URL) {
    super(
      `the server redirected to another origin (HTTP ${status} to ${to.href}); toolrun does not follow it, so the entry's headers stay with ${from.origin}: put that URL in the config if you trust it`,
    );
    this.name = 'CrossOriginRedirectError';
    this.status = status;
    this.location = to.href;
  }
}

/** `remoteFetch` over another base fetch (tests, or a fetch that adds tokens below it). */
export async function fetchWithinOrigin(base: typeof fetch, input: Parameters<typeof fetch>[0], init: RequestInit = {}): Promise<Response> {
  init = withTraceHeaders(init);
  if (input instanceof Request) return base(input, { ...init, redirect: 'manual' });
  let url = new URL(String(input));
  let request: RequestInit = { ...init, redirect: 'manual' };
  for (let hops = 0; ; hops++) {
    const response = await base(url, request);
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
    await response.body?.cancel().catch(() => {});
    const next = new URL(location, url);
    if (next.origin !== url.origin) throw new CrossOriginRedirectError(response.status, url, next);
    if (hops >= MAX_REDIRECTS) throw new Error(`the server redirected more than ${MAX_REDIRECTS} times in a row (last to ${next.href})`);
    // As browsers do: a 303, or a 301/302 of a POST, is followed with a GET and no body.
    const method = (request.method ?? 'GET').toUpperCase();
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) request = { ...request, method: 'GET', body: undefined };
    url = next;
    // A DPoP proof names the URL and method it was made for: made again for this hop (per-hop-headers.ts).
    request = { ...request, headers: headersForHop(request.headers, url, (request.method ?? 'GET').toUpperCase()) };
  }
}
