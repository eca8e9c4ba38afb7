import { AuthRequiredError } from './auth-errors.js';
import type { StoredOAuthProvider } from './provider.js';

/**
 * The fetch a remote transport uses when OAuth may be involved. With a provider, a 401 to a request
 * that carried its token is answered here, once: refresh under the cross-process lock (or take the
 * token another process refreshed), then the same request again. The SDK's own 401 handling would
 * refresh without a lock, or start a browser flow an `exec` cannot finish. Without a provider (no
 * `oauth` in the entry, nothing stored), a 401 with a Bearer challenge becomes "run toolrun auth
 * login SERVER" at once, before any discovery request.
 */
export function authFetch(base: typeof fetch, serverName: string, provider: StoredOAuthProvider | undefined): typeof fetch {
  return async (input, init) => {
    // The 2026-07-28 transport takes no provider: the header is added here for it.
    if (provider && !bearerOf(init?.headers)) {
      const tokens = await provider.tokens();
      if (tokens) init = { ...init, headers: withBearer(init?.headers, tokens.access_token) };
    }
    const response = await base(input, init);
    if (response.status !== 401 || !/^\s*bearer\b/i.test(response.headers.get('www-authenticate') ?? '')) return response;
    // client_credentials: the SDK's auth() gets a new token with the client's secret, no person needed.
    if (provider?.grant === 'client_credentials') return response;
    await response.body?.cancel();
    const sent = bearerOf(init?.headers);
    if (!provider || !sent) throw new AuthRequiredError(serverName, `'${serverName}' asks for an OAuth login (HTTP 401 with a Bearer challenge) and no token is stored`);
    const fresh = await provider.refreshAfter401(sent);
    return base(input, { ...init, headers: withBearer(init?.headers, fresh) });
  };
}

function bearerOf(headers: RequestInit['headers']): string | undefined {
  const value = new Headers(headers).get('authorization');
  return value?.match(/^Bearer\s+(\S+)$/i)?.[1];
}

function withBearer(headers: RequestInit['headers'], token: string): Headers {
  const copy = new Headers(headers);
  copy.set('authorization', `Bearer ${token}`);
  return copy;
}
