import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, type JsonWebKey, type KeyObject } from 'node:crypto';
import { signJwt } from './jwt-sign.js';
import { perRunState } from '../run-environment.js';
import { rememberSecret } from '../secrets/mask-secrets.js';

/**
 * DPoP (RFC 9449): tokens bound to a key pair, so a leaked token is useless without the private key.
 * One P-256 key per server, kept in its token file (0600) beside the tokens it binds; proofs are
 * ES256, fresh for every request (a new `jti`), with `ath` on resource requests (§4.2) and the
 * server's nonce once it asked for one (§8, §9).
 */
export const DPOP_ALGORITHM = 'ES256';

/** The key as stored: its private JWK (the public part is derived from it). */
export interface StoredDpopKey {
  privateJwk: JsonWebKey;
}

export class DpopKey {
  private readonly publicJwk: JsonWebKey;

  private constructor(private readonly key: KeyObject) {
    const { kty, crv, x, y } = key.export({ format: 'jwk' });
    this.publicJwk = { kty, crv, x, y };
  }

  /** A new key pair (P-256), and how to store it. */
  static generate(): { key: DpopKey; stored: StoredDpopKey } {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const privateJwk = privateKey.export({ format: 'jwk' });
    rememberSecret(privateJwk.d!);
    return { key: new DpopKey(privateKey), stored: { privateJwk } };
  }

  static fromStored(stored: StoredDpopKey): DpopKey {
    if (stored.privateJwk.d) rememberSecret(stored.privateJwk.d);
    return new DpopKey(createPrivateKey({ key: stored.privateJwk, format: 'jwk' }));
  }

  /**
   * A proof for one request (RFC 9449 §4.2): `htu` without query and fragment, `ath` the SHA-256 of
   * the access token it accompanies (resource requests), `nonce` the server's latest for that origin.
   */
  proof(method: string, url: string, accessToken?: string): string {
    const target = new URL(url);
    const htu = `${target.origin}${target.pathname}`;
    const nonce = nonces().get(target.origin);
    const payload = {
      jti: randomBytes(16).toString('base64url'),
      htm: method.toUpperCase(),
      htu,
      iat: Math.floor(Date.now() / 1000),
      ...(accessToken && { ath: createHash('sha256').update(accessToken, 'ascii').digest('base64url') }),
      ...(nonce && { nonce }),
    };
    return signJwt({ typ: 'dpop+jwt', jwk: this.publicJwk }, payload, this.key, DPOP_ALGORITHM);
  }
}

/**
 * The key's JWK SHA-256 thumbprint (RFC 7638): what the authorization server puts in a bound token's
 * `cnf.jkt`, public, so `auth status` can show which key the tokens are bound to.
 */
export function dpopKeyThumbprint(stored: StoredDpopKey): string {
  const { crv, kty, x, y } = stored.privateJwk;
  return createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest('base64url');
}

/** The latest `DPoP-Nonce` each origin gave (authorization server and resource server alike), for this run. */
const nonces = perRunState(() => new Map<string, string>());

/** Keeps the nonce a response carries (on a challenge or on success: §8 lets a server rotate it any time); true when it is new. */
export function rememberDpopNonce(url: string, response: Response): boolean {
  const nonce = response.headers.get('dpop-nonce');
  if (!nonce) return false;
  const origin = new URL(url).origin;
  const known = nonces().get(origin);
  nonces().set(origin, nonce);
  return known !== nonce;
}

/** A token endpoint's "use a nonce" answer (RFC 9449 §8): 400 `use_dpop_nonce` with a `DPoP-Nonce` header. */
export async function isTokenNonceChallenge(response: Response): Promise<boolean> {
  if (response.status !== 400 || !response.headers.has('dpop-nonce')) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: unknown } | undefined;
  return body?.error === 'use_dpop_nonce';
}

/** A resource server's "use a nonce" answer (RFC 9449 §9): 401, `WWW-Authenticate: DPoP error="use_dpop_nonce"`, a `DPoP-Nonce` header. */
export function isResourceNonceChallenge(response: Response): boolean {
  return response.status === 401 && response.headers.has('dpop-nonce') && /\bdpop\b[^]*\berror\s*=\s*"?use_dpop_nonce/i.test(response.headers.get('www-authenticate') ?? '');
}
