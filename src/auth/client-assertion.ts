import { randomBytes, type KeyObject } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { AuthFlowError } from './auth-errors.js';
import { readCredential } from './credential-source.js';
import { signingKey, signJwt, type JwtAlgorithm } from './jwt-sign.js';
import type { AuthServer } from './auth-server.js';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** An assertion is made for one request: a minute covers clock skew and the request itself. */
const ASSERTION_LIFETIME_S = 60;

type AddClientAuthentication = NonNullable<OAuthClientProvider['addClientAuthentication']>;

/** Whether the entry authenticates its client with a key (`oauth.privateKey` or `oauth.privateKeyFile`). */
export function usesPrivateKeyJwt(server: AuthServer): boolean {
  return server.oauth?.privateKey !== undefined || server.oauth?.privateKeyFile !== undefined;
}

/**
 * `private_key_jwt` client authentication (RFC 7523 §2.2 and §3, OpenID Connect Core §9), for every
 * token request of the entry (any grant, refreshes too): a JWT signed with the configured key, `iss`
 * and `sub` the client id, `aud` the authorization server's issuer identifier (RFC 7523 §3 allows
 * the issuer or the token endpoint; draft-ietf-oauth-rfc7523bis makes it the issuer, as the MCP
 * conformance suite checks), a fresh `jti`, a one-minute `exp`. The key is read once per command.
 */
export function privateKeyJwtAuthentication(server: AuthServer): AddClientAuthentication | undefined {
  if (!usesPrivateKeyJwt(server)) return undefined;
  const oauth = server.oauth!;
  let signer: Promise<{ key: KeyObject; algorithm: JwtAlgorithm }> | undefined;
  return async (headers, params, tokenUrl, metadata) => {
    if (!oauth.clientId)
      throw new AuthFlowError(`'${server.name}' has oauth.privateKey but no oauth.clientId`, { fix: 'private_key_jwt signs as a client the authorization server knows: set oauth.clientId' });
    signer ??= readCredential({ value: oauth.privateKey, file: oauth.privateKeyFile }, { field: 'privateKey', server: server.name }).then((pem) =>
      signingKey(pem, `oauth.privateKey${oauth.privateKeyFile !== undefined ? 'File' : ''} of '${server.name}'`, oauth.signingAlgorithm),
    );
    const { key, algorithm } = await signer;
    const allowed = metadata?.token_endpoint_auth_signing_alg_values_supported;
    if (allowed && !allowed.includes(algorithm)) {
      throw new AuthFlowError(
        `the authorization server of '${server.name}' takes client assertions signed with ${allowed.join(', ')}, not ${algorithm} (token_endpoint_auth_signing_alg_values_supported)`,
        { fix: 'give oauth.privateKey a key for one of those' },
      );
    }
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: oauth.clientId, sub: oauth.clientId, aud: metadata?.issuer ?? String(tokenUrl), jti: randomBytes(16).toString('base64url'), iat: now, exp: now + ASSERTION_LIFETIME_S };
    headers.delete('authorization');
    params.set('client_id', oauth.clientId);
    params.set('client_assertion_type', CLIENT_ASSERTION_TYPE);
    params.set('client_assertion', signJwt({ typ: 'JWT', ...(oauth.keyId && { kid: oauth.keyId }) }, claims, key, algorithm));
  };
}
