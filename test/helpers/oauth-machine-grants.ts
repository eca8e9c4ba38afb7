import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, SignJWT, type JWK, type KeyLike } from 'jose';
import Provider, { errors } from 'oidc-provider';

/**
 * The grants of SPEC §21 on the fixture's oidc-provider: clients for private_key_jwt, workload
 * identity federation (a JWT-bearer grant with a workload's token) and enterprise-managed
 * authorization (a JWT-bearer grant with an ID-JAG), a small identity provider that exchanges ID
 * tokens for ID-JAGs (RFC 8693), and the resource side's DPoP check (RFC 9449 §7). oidc-provider
 * authenticates the clients and checks the DPoP proofs of token requests itself; the JWT-bearer grant
 * is registered with its own grant helpers, so its tokens are issued (and DPoP-bound) like client_credentials'.
 */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const KEY_CLIENT_ID = 'key-client';
export const WORKLOAD_CLIENT_ID = 'workload';
export const ENTERPRISE_CLIENT = { id: 'enterprise-client', secret: 'enterprise-secret-77c1' };
export const IDP_CLIENT_ID = 'toolrun-at-idp';

const pem = (key: ReturnType<typeof generateKeyPairSync>['privateKey']) => key.export({ format: 'pem', type: 'pkcs8' }).toString();
/** The key-client's key pairs: P-256 (ES256) and RSA (RS256); the authorization server knows both public keys. */
const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
export const CLIENT_KEYS = { es256: pem(ecKey.privateKey), rs256: pem(rsaKey.privateKey) };
/** The CI provider that signs workload tokens, and the identity provider that signs ID tokens and ID-JAGs. */
const workloadIssuerKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const idpKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });

export function machineClients() {
  const jwk = (key: typeof ecKey.publicKey, kid: string) => ({ ...key.export({ format: 'jwk' }), kid, use: 'sig' });
  return [
    {
      client_id: KEY_CLIENT_ID,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [jwk(ecKey.publicKey, 'ec-1'), jwk(rsaKey.publicKey, 'rsa-1')] },
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
    },
    { client_id: WORKLOAD_CLIENT_ID, token_endpoint_auth_method: 'none', grant_types: [JWT_BEARER], redirect_uris: [], response_types: [] },
    { client_id: ENTERPRISE_CLIENT.id, client_secret: ENTERPRISE_CLIENT.secret, grant_types: [JWT_BEARER], redirect_uris: [], response_types: [] },
  ];
}

/** A workload's token (a CI provider's OIDC token) for `audience`, valid for `lifetimeS` seconds (negative: expired). */
export async function workloadToken(audience: string, lifetimeS = 300): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ repository: 'acme/api' })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setIssuer('https://ci.example')
    .setSubject('repo:acme/api:ref:refs/heads/main')
    .setAudience(audience)
    .setIssuedAt(now - 5)
    .setExpirationTime(now + lifetimeS)
    .setJti(randomUUID())
    .sign(workloadIssuerKey.privateKey);
}

/** The user's ID token from the identity provider at `idpIssuer`, for toolrun's client there. */
export async function idToken(idpIssuer: string, lifetimeS = 3600): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email: 'dana@acme.example' })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer(idpIssuer)
    .setSubject('dana')
    .setAudience(IDP_CLIENT_ID)
    .setIssuedAt(now - 5)
    .setExpirationTime(now + lifetimeS)
    .sign(idpKey.privateKey);
}

/**
 * The JWT-bearer grant (RFC 7523 §2.1): a workload token from the CI provider for the workload
 * client, or an ID-JAG from the identity provider for the enterprise client (its `client_id` and
 * `resource` checked, SEP-990); `aud` the issuer or the token endpoint (counted by the fixture's grant.success).
 */
export async function registerJwtBearerGrant(provider: Provider, issuer: string, mcpUrl: string, idpIssuer: string): Promise<void> {
  // @ts-expect-error oidc-provider ships no types for its grant helpers; the built-in grants use them the same way.
  const helpers = (await import('oidc-provider/lib/helpers/grants.js')) as Record<string, (...args: unknown[]) => unknown>;
  // @ts-expect-error as above
  const { applyDpopBinding } = (await import('oidc-provider/lib/helpers/grant_common.js')) as { applyDpopBinding: (...args: unknown[]) => Promise<void> };
  const helper =
    (name: string) =>
    (...args: unknown[]) =>
      helpers[name]!(provider, ...args) as never;
  provider.registerGrantType(
    JWT_BEARER,
    async (ctx) => {
      const assertion = String(ctx.oidc.params!.assertion ?? '');
      const client = ctx.oidc.client!;
      const audience = [issuer, `${issuer}/token`];
      try {
        if (client.clientId === ENTERPRISE_CLIENT.id) {
          if (decodeProtectedHeader(assertion).typ !== 'oauth-id-jag+jwt') throw new Error('not an ID-JAG');
          const { payload } = await jwtVerify(assertion, idpKey.publicKey, { issuer: idpIssuer, audience });
          if (payload.client_id !== client.clientId || payload.resource !== mcpUrl) throw new Error('ID-JAG for another client or resource');
        } else await jwtVerify(assertion, workloadIssuerKey.publicKey, { issuer: 'https://ci.example', audience });
      } catch (error) {
        throw new errors.InvalidGrant(`assertion refused: ${(error as Error).message}`);
      }
      const dPoP = await helper('validateDpop')(ctx);
      const [resourceServer] = (await helper('resolveRequestedResources')(ctx)) as Array<{ scope: string }>;
      const scopes = [...(helper('validateClientScope')(ctx) as Set<string>)];
      const token = new provider.ClientCredentials({ client, scope: scopes.join(' ') || undefined });
      if (resourceServer) {
        token.resourceServer = resourceServer as never;
        token.scope = scopes.filter((scope) => resourceServer.scope.split(' ').includes(scope)).join(' ') || undefined;
      }
      await applyDpopBinding(provider, ctx, dPoP, token);
      ctx.body = { access_token: await token.save(), expires_in: token.expiration, token_type: token.tokenType, ...(token.scope && { scope: token.scope }) };
    },
    ['assertion', 'scope', 'resource'],
    ['resource'],
  );
}

/** The identity provider of enterprise-managed authorization, under `/idp` of the authorization server's origin: metadata and token exchange. */
export async function serveIdentityProvider(req: IncomingMessage, res: ServerResponse, idpIssuer: string, counts: Record<string, number>): Promise<void> {
  const json = (status: number, body: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (req.method === 'GET' && req.url === '/idp/.well-known/openid-configuration')
    return void json(200, { issuer: idpIssuer, token_endpoint: `${idpIssuer}/token`, grant_types_supported: ['urn:ietf:params:oauth:grant-type:token-exchange'] });
  if (req.method !== 'POST' || req.url !== '/idp/token') return void json(404, { error: 'not_found' });
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const params = new URLSearchParams(Buffer.concat(chunks).toString());
  if (
    params.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange' ||
    params.get('requested_token_type') !== 'urn:ietf:params:oauth:token-type:id-jag' ||
    params.get('client_id') !== IDP_CLIENT_ID
  )
    return void json(400, { error: 'invalid_request', error_description: 'a token exchange for an ID-JAG by a known client is expected' });
  try {
    const { payload } = await jwtVerify(params.get('subject_token') ?? '', idpKey.publicKey, { issuer: idpIssuer, audience: IDP_CLIENT_ID });
    counts['token-exchange'] = (counts['token-exchange'] ?? 0) + 1;
    const jag = await new SignJWT({ client_id: ENTERPRISE_CLIENT.id, resource: params.get('resource'), ...(params.get('scope') && { scope: params.get('scope') }) })
      .setProtectedHeader({ alg: 'ES256', typ: 'oauth-id-jag+jwt' })
      .setIssuer(idpIssuer)
      .setSubject(String(payload.sub))
      .setAudience(params.get('audience') ?? '')
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti(randomUUID())
      .sign(idpKey.privateKey);
    json(200, { access_token: jag, issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A', expires_in: 300 });
  } catch (error) {
    json(400, { error: 'invalid_grant', error_description: `ID token refused: ${(error as Error).message}` });
  }
}

/**
 * The resource server's side of DPoP (RFC 9449 §7): a token bound to a key (`cnf.jkt`) needs the
 * `DPoP` scheme and a proof for this request (method, URL, `ath`, the key's thumbprint, a fresh `jti`),
 * and the server's nonce when it asks for one. Returns the challenge to answer with, or undefined.
 */
export async function checkDpopPresentation(
  req: IncomingMessage,
  url: string,
  token: string,
  scheme: string,
  jkt: string | undefined,
  nonce: { current?: string; seenJtis: Set<string> },
): Promise<{ error: string; description: string; nonce?: string } | undefined> {
  if (!jkt) return scheme.toLowerCase() === 'bearer' ? undefined : { error: 'invalid_token', description: 'a Bearer token presented with the DPoP scheme' };
  const proof = req.headers.dpop;
  if (scheme.toLowerCase() !== 'dpop' || typeof proof !== 'string') return { error: 'invalid_token', description: 'DPoP-bound token sent without a DPoP proof' };
  try {
    const header = decodeProtectedHeader(proof);
    if (header.typ !== 'dpop+jwt' || !header.jwk) throw new Error('not a DPoP proof');
    const { payload } = await jwtVerify(proof, (await importJWK(header.jwk as JWK, header.alg)) as KeyLike, { maxTokenAge: 300 });
    const htu = new URL(url);
    if (payload.htm !== req.method || payload.htu !== `${htu.origin}${htu.pathname}`) throw new Error('htm or htu does not match the request');
    if (payload.ath !== createHash('sha256').update(token).digest('base64url')) throw new Error('ath does not match the token');
    if ((await calculateJwkThumbprint(header.jwk as JWK)) !== jkt) throw new Error('the proof key is not the one the token is bound to');
    if (nonce.seenJtis.has(String(payload.jti))) throw new Error('a replayed proof');
    nonce.seenJtis.add(String(payload.jti));
    if (nonce.current !== undefined && payload.nonce !== nonce.current) return { error: 'use_dpop_nonce', description: 'a nonce is required', nonce: nonce.current };
  } catch (error) {
    return { error: 'invalid_dpop_proof', description: (error as Error).message };
  }
  return undefined;
}
