import { limitedAuthFetch } from './auth-request-limits.js';
import type { AuthSession } from './auth-session.js';
import type { StoredOAuthProvider } from './provider.js';
import { parseBearerChallenge } from './www-authenticate.js';

/**
 * The fetch a remote transport uses when OAuth may be involved, in both protocol eras. The token is
 * added here; a 401 to a request is answered here, once: refresh under the cross-process lock (or
 * take the token another process refreshed), or a login when nothing is stored, then the same
 * request again. A 403 `insufficient_scope` asks for the union of scopes the same way. The SDK's
 * own handling would refresh without a lock, or start a browser flow an `exec` cannot finish. When
 * no browser can be answered, the session throws "run toolrun auth login SERVER" at once, before
 * any discovery request. client_credentials is the SDK's: it needs no person.
 */
export function authFetch(base: typeof fetch, session: AuthSession): typeof fetch {
  return async (input, init) => {
    const provider: StoredOAuthProvider | undefined = session.provider;
    if (provider?.grant === 'client_credentials') return clientCredentialsFetch(base, provider, session.serverUrl, input, init);
    let sent = bearerOf(init?.headers) ?? (await session.token());
    const send = (token: string | undefined) => base(input, token ? { ...init, headers: withBearer(init?.headers, token) } : init);
    let response = await send(sent);
    if (isBearerChallenge(response, 401)) {
      const { scope } = challengeOf(response);
      await response.body?.cancel();
      sent = await session.afterUnauthorized(sent, scope);
      response = await send(sent);
      if (isBearerChallenge(response, 401)) {
        await response.body?.cancel();
        throw session.refused();
      }
    }
    if (response.status !== 401) session.noteAccepted(sent);
    // Bounded by the session: a scope set it already asked for is not asked again.
    while (isBearerChallenge(response, 403)) {
      const { error, scope } = challengeOf(response);
      if (error !== 'insufficient_scope') break;
      await response.body?.cancel();
      sent = await session.afterInsufficientScope(sent, scope);
      response = await send(sent);
    }
    return response;
  };
}

async function clientCredentialsFetch(base: typeof fetch, provider: StoredOAuthProvider, serverUrl: string, input: Parameters<typeof fetch>[0], init: RequestInit | undefined): Promise<Response> {
  // The SDK transport's own auth() (discovery, the token request) uses this fetch too: metadata and
  // another origin's requests are the flow's, bounded as every OAuth request is, and carry no token.
  if (isFlowRequest(input, serverUrl)) return limitedAuthFetch(base)(input instanceof Request ? input.url : input, init);
  // The 2026-07-28 transport takes no provider: the header is added here for it.
  if (!bearerOf(init?.headers)) {
    const tokens = await provider.tokens();
    if (tokens) init = { ...init, headers: withBearer(init?.headers, tokens.access_token) };
  }
  return base(input, init);
}

/** A well-known metadata document, or a request to another origin than the MCP server's (its authorization server). */
function isFlowRequest(input: Parameters<typeof fetch>[0], serverUrl: string): boolean {
  const url = new URL(input instanceof Request ? input.url : String(input));
  return url.origin !== new URL(serverUrl).origin || url.pathname.startsWith('/.well-known/');
}

function challengeOf(response: Response): { error?: string; scope?: string } {
  return parseBearerChallenge(response.headers.get('www-authenticate'))?.params ?? {};
}

function isBearerChallenge(response: Response, status: number): boolean {
  return response.status === status && /^\s*bearer\b/i.test(response.headers.get('www-authenticate') ?? '');
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
