/**
 * What doctor and `mcp list` may know of a stored token: who issued it, for which scopes, until
 * when. Never the token itself. The token store (toolrun auth login) is what fills it in.
 */
export interface StoredTokenSummary {
  issuer: string;
  scopes: string[];
  /** When the access token expires (ISO 8601), if the authorization server said. */
  expiresAt?: string;
}
