import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { hasAuthorizationHeader } from '../../auth/own-credentials.js';
import type { RemoteServerSpec } from '../../config/resolve-server.js';
import { remoteAuth } from '../../auth/remote-auth.js';
import { withDeleteStatus } from './remote-session.js';
import { remoteFetch } from '../../http/remote-fetch.js';

/**
 * A Streamable HTTP or SSE client transport for a remote server, with the config's headers and its
 * OAuth tokens (SPEC §14, §21): the wrapped fetch adds them, whatever the grant.
 */
export async function createRemoteTransport(spec: RemoteServerSpec, kind: 'http' | 'sse'): Promise<Transport> {
  const { url, headers } = remoteTarget(spec);
  const requestInit: RequestInit = { headers };
  const auth = remoteAuth(spec, headers);
  const wrap = auth?.wrapFetch ?? ((base: typeof fetch) => base);
  if (kind === 'sse') {
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
    const sseFetch = wrap(remoteFetch);
    return new SSEClientTransport(url, {
      requestInit,
      fetch: sseFetch,
      eventSourceInit: { fetch: (input, init) => sseFetch(input, { ...init, headers: { ...headers, ...(init?.headers as Record<string, string>) } }) },
    });
  }
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  return withDeleteStatus((fetchFn) => new StreamableHTTPClientTransport(url, { requestInit, fetch: wrap(fetchFn) }));
}

/** The 2026-07-28 era's Streamable HTTP client transport (v2 client), with the config's headers and OAuth tokens. */
export async function createModernHttpTransport(remote: { url: URL; headers: Record<string, string> }, spec?: RemoteServerSpec): Promise<Transport> {
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const auth = spec && remoteAuth(spec, remote.headers);
  const wrap = auth?.wrapFetch ?? ((base: typeof fetch) => base);
  return withDeleteStatus((fetchFn) => new StreamableHTTPClientTransport(remote.url, { requestInit: { headers: remote.headers }, fetch: wrap(fetchFn) })) as unknown as Transport;
}

/** The URL to request and the headers to send: the config's, with a URL's user:password as Basic auth. */
export function remoteTarget(spec: RemoteServerSpec): { url: URL; headers: Record<string, string> } {
  const url = new URL(spec.url);
  const headers = { ...spec.headers };
  // fetch refuses a URL with credentials ("Request cannot be constructed…"); curl and browsers send
  // them as Basic auth, which is what `http://user:pass@host` means. A configured Authorization wins.
  if (url.username || url.password) {
    if (!hasAuthorizationHeader(headers)) headers.Authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  return { url, headers };
}

/** A Streamable HTTP failure that means "this server speaks the older SSE transport" (spec: backwards compatibility). */
export function suggestsSseFallback(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (code === 404 || code === 405) return true;
  const message = String((error as Error)?.message ?? error);
  return /\b(404|405)\b/.test(message) || /Cannot POST|Unexpected content type/i.test(message);
}
