import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AuthFlowError } from './auth-errors.js';
import { checkNotExpired } from './assertion-check.js';
import { readCredential } from './credential-source.js';
import { isLoopbackHost } from './authorization-url.js';
import { sameIssuer } from './check-discovery.js';
import type { AuthServer } from './auth-server.js';
import { maskThenCut, rememberSecret } from '../secrets/mask-secrets.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';

/**
 * Enterprise-managed authorization (SEP-990, draft-ietf-oauth-identity-assertion-authz-grant): the
 * user's ID token from the company's identity provider is exchanged there (RFC 8693 token exchange)
 * for an Identity Assertion JWT Authorization Grant (ID-JAG) addressed to the MCP server's
 * authorization server (`audience`, its issuer) for the MCP server (`resource`). The ID-JAG is then
 * the assertion of a JWT-bearer grant at that authorization server.
 */
export async function requestIdJag(server: AuthServer, target: { audience: string; resource: string; scope?: string }, fetchFn: FetchLike): Promise<string> {
  const idp = server.oauth?.idp;
  if (!idp)
    throw new AuthFlowError(`'${server.name}' has oauth.grant "enterprise" but no oauth.idp`, {
      fix: 'name the identity provider (oauth.idp.issuer or tokenEndpoint) and the ID token (oauth.idp.idToken, idTokenFile or idTokenCommand)',
    });
  const idToken = await readCredential({ value: idp.idToken, file: idp.idTokenFile, command: idp.idTokenCommand }, { field: 'idp.idToken', server: server.name });
  checkNotExpired(idToken, `the ID token of '${server.name}' (oauth.idp.idToken)`);
  const tokenEndpoint = checkSecureUrl(idp.tokenEndpoint ?? (await identityProviderTokenEndpoint(idp.issuer!, fetchFn)), 'token endpoint');
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT,
    requested_token_type: ID_JAG_TOKEN_TYPE,
    subject_token: idToken,
    subject_token_type: ID_TOKEN_TYPE,
    audience: target.audience,
    resource: target.resource,
    ...(target.scope && { scope: target.scope }),
  });
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
  // In the body, as the extension's example (SEP-990 §4) and the SDK's requestJwtAuthorizationGrant send them.
  if (idp.clientId) body.set('client_id', idp.clientId);
  if (idp.clientSecret) body.set('client_secret', idp.clientSecret);
  // Never to wherever a redirect points: the body carries the ID token and the client's secret.
  const response = await fetchFn(tokenEndpoint, { method: 'POST', headers, body, redirect: 'manual' });
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => {});
    throw new AuthFlowError(`the identity provider's token endpoint ${tokenEndpoint} answered a redirect (HTTP ${response.status}): toolrun does not send the ID token on to it`, {
      fix: 'set oauth.idp.tokenEndpoint to the endpoint itself',
    });
  }
  const answer = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok || typeof answer?.access_token !== 'string') {
    const said = typeof answer?.error === 'string' ? `${answer.error}${typeof answer.error_description === 'string' ? `: ${answer.error_description}` : ''}` : `HTTP ${response.status}`;
    throw new AuthFlowError(`the identity provider at ${new URL(tokenEndpoint).origin} refused to exchange the ID token of '${server.name}' for an ID-JAG (${said})`, {
      fix: 'check oauth.idp (client, ID token) and that the identity provider lets this client reach the MCP server',
    });
  }
  if (answer.issued_token_type !== undefined && answer.issued_token_type !== ID_JAG_TOKEN_TYPE) {
    throw new AuthFlowError(`the identity provider at ${new URL(tokenEndpoint).origin} issued a ${String(answer.issued_token_type)}, not an ID-JAG (${ID_JAG_TOKEN_TYPE}), for '${server.name}'`);
  }
  rememberSecret(answer.access_token);
  return answer.access_token;
}

/** An identity provider URL the ID token may go to: https, or http on this machine (a development identity provider). */
function checkSecureUrl(url: string, what: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed && (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)))) return url;
  throw new AuthFlowError(`the identity provider's ${what} ${JSON.stringify(maskThenCut(url, 200))} is not https (http only on this machine): toolrun does not send an ID token there`);
}

/** The identity provider's token endpoint from its metadata (OpenID Connect Discovery, else RFC 8414), its issuer checked. */
async function identityProviderTokenEndpoint(issuer: string, fetchFn: FetchLike): Promise<string> {
  const base = checkSecureUrl(issuer, 'issuer').replace(/\/+$/, '');
  for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
    const response = await fetchFn(`${base}${path}`, { headers: { accept: 'application/json' }, redirect: 'manual' });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      continue;
    }
    const metadata = (await response.json().catch(() => undefined)) as { issuer?: unknown; token_endpoint?: unknown } | undefined;
    if (typeof metadata?.issuer === 'string' && !sameIssuer(metadata.issuer, issuer))
      throw new AuthFlowError(`the identity provider's metadata at ${base}${path} names issuer ${metadata.issuer}, not ${issuer} (RFC 8414 §3.3)`);
    if (typeof metadata?.token_endpoint === 'string') return metadata.token_endpoint;
  }
  throw new AuthFlowError(`no token endpoint found for the identity provider ${issuer} (no OpenID or OAuth metadata at its well-known URLs)`, { fix: 'set oauth.idp.tokenEndpoint' });
}
