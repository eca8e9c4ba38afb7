import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AuthFlowError } from './auth-errors.js';
import { MAX_BODY_BYTES } from './bounded-request.js';
import { perRunState } from '../run-environment.js';

/**
 * How long one request of the OAuth flow (metadata, registration, token, refresh) may take. An
 * authorization server that accepts the connection and never answers held `exec --timeout 5000`
 * for over 100 s and `auth login` for 300 s (undici's own headers timeout): 10 s is far above what
 * a working one needs (tens of milliseconds), and the command's --timeout lowers it.
 */
export const AUTH_REQUEST_TIMEOUT_MS = 10_000;

const limits = perRunState(() => ({ requestTimeoutMs: AUTH_REQUEST_TIMEOUT_MS }));

/** Set by the CLI from --timeout: no request of the flow outlasts the command's own timeout. */
export function limitAuthRequests(commandTimeoutMs: number | undefined): void {
  limits().requestTimeoutMs = Math.min(AUTH_REQUEST_TIMEOUT_MS, commandTimeoutMs ?? Infinity);
}

export function authRequestTimeoutMs(): number {
  return limits().requestTimeoutMs;
}

/**
 * The fetch every request of the OAuth flow goes through (the SDK's auth(), the refresh, the first
 * challenge): a timeout, and the body read up to MAX_BODY_BYTES (256 KB, as doctor's trace reads
 * it: metadata, a registration or a token answer is a few kilobytes; a server streaming more is
 * not sending one). Either is an auth error (exit 4) naming the URL.
 */
export function limitedAuthFetch(base: FetchLike = fetch, timeoutMs = authRequestTimeoutMs()): FetchLike {
  return async (input, init) => {
    const url = new URL(String(input));
    const where = `${url.origin}${url.pathname}`;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([timeout, init.signal]) : timeout;
    try {
      const response = await base(input, { ...init, signal });
      const body = await readCapped(response, where);
      // A body-less status (204, 304) cannot be given a body, even an empty one.
      return new Response(response.status === 204 || response.status === 304 ? null : body, { status: response.status, statusText: response.statusText, headers: response.headers });
    } catch (error) {
      if (timeout.aborted) throw new AuthFlowError(`${where} did not answer within ${timeoutMs} ms (an OAuth request; --timeout lowers the limit)`, { cause: error });
      throw error;
    }
  };
}

async function readCapped(response: Response, where: string): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw new AuthFlowError(`${where} sent more than ${MAX_BODY_BYTES / 1024} KB (an OAuth metadata, registration or token answer is a few KB): toolrun stopped reading it`);
    }
    chunks.push(value);
  }
}
