import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthGrant } from '../config/config-types.js';
import { checkAudience, checkNotExpired } from './assertion-check.js';
import { limitedAuthFetch } from './auth-request-limits.js';
import { readCredential } from './credential-source.js';
import { requestIdJag } from './id-jag.js';
import type { AuthServer } from './auth-server.js';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Grants that need no person: a command gets its token by itself (SPEC §14, §21). */
export function isMachineGrant(grant: OAuthGrant): boolean {
  return grant !== 'authorization_code';
}

/** The grant types a registration of this grant names (RFC 7591 §2). */
export function registrationGrantTypes(grant: OAuthGrant): string[] {
  if (grant === 'authorization_code') return ['authorization_code', 'refresh_token'];
  return grant === 'client_credentials' ? ['client_credentials'] : [JWT_BEARER_GRANT];
}

/**
 * The token request of a machine grant, its credential read afresh (a CI token lives minutes):
 * `client_credentials` (RFC 6749 §4.4); `jwt_bearer`, the workload's token as the assertion
 * (RFC 7523 §2.1, SEP-1933); `enterprise`, an ID-JAG got from the identity provider as the assertion
 * (SEP-990). The assertion is returned too, for what a refusal should say about it.
 */
export async function machineTokenRequest(
  server: AuthServer,
  discovery: OAuthDiscoveryState | undefined,
  resource: string | undefined,
  scope: string | undefined,
  fetchFn: FetchLike = limitedAuthFetch(),
): Promise<{ params: URLSearchParams; assertion?: string }> {
  const grant = server.oauth?.grant ?? 'authorization_code';
  const scoped: Record<string, string> = scope ? { scope } : {};
  if (grant === 'client_credentials') return { params: new URLSearchParams({ grant_type: 'client_credentials', ...scoped }) };
  let assertion: string;
  if (grant === 'jwt_bearer') {
    const oauth = server.oauth!;
    assertion = await readCredential({ value: oauth.assertion, file: oauth.assertionFile, command: oauth.assertionCommand }, { field: 'assertion', server: server.name });
    const what = `the assertion of '${server.name}' (oauth.assertion${oauth.assertionFile !== undefined ? 'File' : oauth.assertionCommand !== undefined ? 'Command' : ''})`;
    checkNotExpired(assertion, what);
    const metadata = discovery?.authorizationServerMetadata;
    checkAudience(assertion, [metadata?.issuer ?? discovery?.authorizationServerUrl, metadata?.token_endpoint], what);
  } else {
    const audience = discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl ?? new URL(server.url).origin;
    assertion = await requestIdJag(server, { audience, resource: resource ?? server.url, scope }, fetchFn);
  }
  return { params: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion, ...scoped }), assertion };
}
