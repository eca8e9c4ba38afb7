/**
 * One HTTP request of the auth trace, bounded as SPEC §8 asks of everything toolrun reads from a
 * server: a timeout (the server's connectTimeoutMs), a body read up to a limit, a few redirects. No
 * credentials are ever sent (no Authorization, no cookies), so following a GET's redirect to another
 * origin leaks nothing; a POST is never followed.
 */
export interface BoundedAnswer {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  headers: Headers;
  /** The body, cut at MAX_BODY_BYTES. */
  text: string;
  /** Each redirect followed, as `301 → URL`. */
  redirects: string[];
  ms: number;
}

export interface BoundedFailure {
  url: string;
  /** Why no answer came (timeout, refused, too many redirects). */
  error: string;
  ms: number;
}

export interface RequestLimits {
  timeoutMs: number;
  signal?: AbortSignal;
  fetchFn?: typeof fetch;
}

/** Metadata documents are a few kilobytes; a server streaming more is not sending metadata. */
export const MAX_BODY_BYTES = 256 * 1024;
const MAX_REDIRECTS = 3;

export async function boundedRequest(
  url: URL,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; readBody?: boolean; follow?: boolean },
  limits: RequestLimits,
): Promise<BoundedAnswer | BoundedFailure> {
  const startedAt = performance.now();
  const ms = () => Math.round(performance.now() - startedAt);
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = limits.signal ? AbortSignal.any([timeout, limits.signal]) : timeout;
  const fetchFn = limits.fetchFn ?? fetch;
  const redirects: string[] = [];
  let current = url;
  try {
    for (;;) {
      const response = await fetchFn(current, { method: init.method, headers: init.headers, body: init.body, redirect: 'manual', credentials: 'omit', signal });
      const location = response.headers.get('location');
      if (init.method === 'GET' && init.follow !== false && response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (redirects.length >= MAX_REDIRECTS) return { url: current.href, error: `more than ${MAX_REDIRECTS} redirects`, ms: ms() };
        current = new URL(location, current);
        redirects.push(`${response.status} → ${current.href}`);
        continue;
      }
      const text = init.readBody === false ? (await response.body?.cancel(), '') : await readLimited(response);
      return { url: current.href, status: response.status, headers: response.headers, text, redirects, ms: ms() };
    }
  } catch (error) {
    const reason = timeout.aborted ? `no answer within ${limits.timeoutMs} ms` : limits.signal?.aborted ? 'interrupted' : describeFetchError(error);
    return { url: current.href, error: reason, ms: ms() };
  }
}

export function isFailure(answer: BoundedAnswer | BoundedFailure): answer is BoundedFailure {
  return 'error' in answer;
}

async function readLimited(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= MAX_BODY_BYTES) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8');
}

/** fetch's own message is "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND) is in its cause. */
function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}
