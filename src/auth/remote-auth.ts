import { existsSync } from 'node:fs';
import { authFetch } from './auth-fetch.js';
import { StoredOAuthProvider } from './provider.js';
import type { AuthServer } from './token-refresh.js';
import { TokenStore } from './token-store.js';

export interface RemoteAuth {
  /** For the SDK transport: it adds the token and handles client_credentials and 403 insufficient_scope. */
  provider?: StoredOAuthProvider;
  /** Wraps the transport's fetch: refresh on a 401, or "run toolrun auth login SERVER". */
  wrapFetch: (base: typeof fetch) => typeof fetch;
}

/**
 * How a remote server's requests are authorized. A configured Authorization header wins: no OAuth
 * at all. Otherwise a provider when the entry has `oauth` or the store has a record for this name
 * and URL (one stat on the happy path, no discovery: the token is sent as it is stored); else only
 * a watch for a 401 Bearer challenge, so a server behind OAuth says how to log in.
 */
export function remoteAuth(server: AuthServer, headers: Record<string, string>, env: NodeJS.ProcessEnv = process.env): RemoteAuth | undefined {
  // One per server entry: the discover probe, the transport and a fallback share the provider, so a refresh happens once.
  if (decided.has(server)) return decided.get(server);
  const auth = decideRemoteAuth(server, headers, env);
  decided.set(server, auth);
  return auth;
}

const decided = new WeakMap<AuthServer, RemoteAuth | undefined>();

function decideRemoteAuth(server: AuthServer, headers: Record<string, string>, env: NodeJS.ProcessEnv): RemoteAuth | undefined {
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return undefined;
  const store = new TokenStore(env);
  if (!server.oauth && !existsSync(store.pathOf(server.name, server.url))) return { wrapFetch: (base) => authFetch(base, server.name, undefined) };
  const provider = new StoredOAuthProvider({ server, store, mode: 'connect' });
  return { provider, wrapFetch: (base) => authFetch(base, server.name, provider) };
}
