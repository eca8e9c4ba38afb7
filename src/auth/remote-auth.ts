import { existsSync } from 'node:fs';
import { authFetch } from './auth-fetch.js';
import { hasAuthorizationHeader } from './own-credentials.js';
import { AuthSession } from './auth-session.js';
import { currentInlineLogin } from './inline-login.js';
import { StoredOAuthProvider } from './provider.js';
import type { AuthServer } from './token-refresh.js';
import { TokenStore } from './token-store.js';
import { currentEnv } from '../run-environment.js';

export interface RemoteAuth {
  /** Wraps the transport's fetch: the token, a refresh on a 401, more scopes on a 403, a login inline or "run toolrun auth login SERVER". */
  wrapFetch: (base: typeof fetch) => typeof fetch;
}

/**
 * How a remote server's requests are authorized. A configured Authorization header wins: no OAuth
 * at all. Otherwise a provider when the entry has `oauth` or the store has a record for this name
 * and URL (one stat on the happy path, no discovery: the token is sent as it is stored); else only
 * a watch for a 401 Bearer challenge, which logs in inline when someone can answer a browser and
 * otherwise says how to log in.
 */
export function remoteAuth(server: AuthServer, headers: Record<string, string>, env: NodeJS.ProcessEnv = currentEnv()): RemoteAuth | undefined {
  // One per server entry: the discover probe, the transport and a fallback share the session, so a refresh or a login happens once.
  if (decided.has(server)) return decided.get(server);
  const auth = decideRemoteAuth(server, headers, env);
  decided.set(server, auth);
  return auth;
}

const decided = new WeakMap<AuthServer, RemoteAuth | undefined>();

function decideRemoteAuth(server: AuthServer, headers: Record<string, string>, env: NodeJS.ProcessEnv): RemoteAuth | undefined {
  if (hasAuthorizationHeader(headers)) return undefined;
  const store = new TokenStore(env);
  const stored = server.oauth || existsSync(store.pathOf(server.name, server.url));
  const provider = stored ? new StoredOAuthProvider({ server, store, mode: 'connect' }) : undefined;
  const session = new AuthSession({ ...server, headers }, store, provider, currentInlineLogin());
  return { wrapFetch: (base) => authFetch(base, session) };
}
