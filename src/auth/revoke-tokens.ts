import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import { maskThenCut } from '../secrets/mask-secrets.js';
import { limitedAuthFetch } from './auth-request-limits.js';
import type { AuthRecord } from './token-store.js';

/** What became of a record's tokens at its authorization server on logout. */
export type Revocation = { outcome: 'revoked' } | { outcome: 'refresh-revoked' } | { outcome: 'not-offered' } | { outcome: 'none-stored' } | { outcome: 'failed'; why: string };

/**
 * `auth logout`: RFC 7009 revocation of the stored tokens where the authorization server advertises
 * `revocation_endpoint`, the refresh token first (revoking it ends the grant: most servers revoke its
 * access tokens too). The client authenticates as at the token endpoint. Forgetting tokens locally
 * leaves them valid for whoever copied them, so the caller says which happened.
 */
export async function revokeStoredTokens(record: AuthRecord, client: OAuthClientInformationMixed | undefined): Promise<Revocation> {
  const tokens = [
    ['refresh_token', record.tokens?.refresh_token],
    ['access_token', record.tokens?.access_token],
  ].filter((pair): pair is [string, string] => typeof pair[1] === 'string' && pair[1] !== '');
  if (tokens.length === 0) return { outcome: 'none-stored' };
  const metadata = record.discovery?.authorizationServerMetadata as { revocation_endpoint?: unknown; revocation_endpoint_auth_methods_supported?: unknown } | undefined;
  const endpoint = typeof metadata?.revocation_endpoint === 'string' ? metadata.revocation_endpoint : undefined;
  if (!endpoint || !client) return { outcome: 'not-offered' };
  const fetchFn = limitedAuthFetch();
  for (const [hint, token] of tokens) {
    const form = new URLSearchParams({ token, token_type_hint: hint });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    authenticate(client, metadata?.revocation_endpoint_auth_methods_supported, headers, form);
    try {
      const response = await fetchFn(endpoint, { method: 'POST', headers, body: form.toString() });
      const error = response.status === 200 ? undefined : await oauthErrorOf(response);
      await response.body?.cancel().catch(() => {});
      // RFC 7009 §2.2.1: a server may not revoke self-contained access tokens (JWTs); the refresh token, the grant, is gone.
      if (error === 'unsupported_token_type' && hint === 'access_token' && tokens.length === 2) return { outcome: 'refresh-revoked' };
      // RFC 7009 §2.2: 200 whether or not the token was valid; anything else left it as it was.
      if (response.status !== 200) return { outcome: 'failed', why: `HTTP ${response.status}${error ? ` ${error}` : ''}` };
    } catch (error) {
      return { outcome: 'failed', why: (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message };
    }
  }
  return { outcome: 'revoked' };
}

/** Client authentication as RFC 7009 §2.1 asks (the token endpoint's): basic with a secret unless only post is offered, else client_id in the body. */
function authenticate(client: OAuthClientInformationMixed, methods: unknown, headers: Record<string, string>, form: URLSearchParams): void {
  const secret = client.client_secret;
  if (!secret) {
    form.set('client_id', client.client_id);
    return;
  }
  const postOnly = Array.isArray(methods) && methods.includes('client_secret_post') && !methods.includes('client_secret_basic');
  if (postOnly) {
    form.set('client_id', client.client_id);
    form.set('client_secret', secret);
  } else headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

async function oauthErrorOf(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { error?: unknown };
    return typeof body.error === 'string' ? maskThenCut(body.error, 100) : undefined;
  } catch {
    return undefined;
  }
}
