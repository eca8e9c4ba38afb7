import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { rememberSecret } from '../secrets/mask-secrets.js';
import type { StoredTokens } from './token-store.js';

/** Refresh this long before the expiry (at most a tenth of the token's life): a request must not carry a token that dies in flight. */
const REFRESH_MARGIN_MS = 30_000;

/** The token response as stored: absolute expiry, every secret remembered for masking. */
export function storedTokens(tokens: OAuthTokens, now = Date.now()): StoredTokens {
  for (const secret of [tokens.access_token, tokens.refresh_token, tokens.id_token]) if (secret) rememberSecret(secret);
  const stored: StoredTokens = { ...tokens, obtained_at: now };
  if (typeof tokens.expires_in === 'number') stored.expires_at = now + tokens.expires_in * 1000;
  return stored;
}

/** Whether the access token can be sent now (no expiry known: yes, and a 401 says otherwise). */
export function isUsable(tokens: StoredTokens | undefined, now = Date.now()): boolean {
  if (!tokens?.access_token) return false;
  if (tokens.expires_at === undefined) return true;
  const life = tokens.obtained_at !== undefined ? tokens.expires_at - tokens.obtained_at : REFRESH_MARGIN_MS * 10;
  return tokens.expires_at - Math.min(REFRESH_MARGIN_MS, life / 10) > now;
}
