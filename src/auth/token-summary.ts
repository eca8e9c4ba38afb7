import type { TokenStore } from './token-store.js';

/**
 * What doctor and `mcp list` may know of a stored token: who issued it, for which scopes, until
 * when. Never the token itself. The token store (toolrun auth login) is what fills it in.
 */
export interface StoredTokenSummary {
  issuer: string;
  scopes: string[];
  /** When the access token expires (ISO 8601), if the authorization server said. */
  expiresAt?: string;
  /** How it was got (SPEC §21): the grant and the client's authentication, when recorded. */
  grant?: string;
  clientAuthentication?: string;
  /** `dpop` when bound to the key stored beside it (RFC 9449), else `bearer`. */
  binding: 'dpop' | 'bearer';
}

/**
 * What doctor shows of a remote server's stored login: the summary, null when toolrun has none for
 * it (doctor then names `toolrun auth login SERVER`), or undefined when it does not apply: the
 * entry gets its tokens itself (a grant with no person: client_credentials, jwt_bearer, enterprise),
 * which doctor traces (machine-trace.ts).
 */
export function storedTokenSummary(store: TokenStore, server: string, url: string, grant: string | undefined): StoredTokenSummary | null | undefined {
  if (grant !== undefined && grant !== 'authorization_code') return undefined;
  const record = store.read(server, url);
  const tokens = record?.tokens;
  if (!record || (!tokens?.access_token && !tokens?.refresh_token)) return null;
  return {
    issuer: record.issuer ?? 'unknown issuer',
    scopes: tokens.scope ? tokens.scope.split(' ').filter(Boolean) : [],
    expiresAt: tokens.expires_at !== undefined ? new Date(tokens.expires_at).toISOString() : undefined,
    grant: record.grant,
    clientAuthentication: record.clientAuthentication,
    binding: record.dpop && tokens.token_type?.toLowerCase() === 'dpop' ? 'dpop' : 'bearer',
  };
}
