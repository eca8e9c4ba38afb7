import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { AuthFlowError } from './auth-errors.js';

/**
 * The JWS algorithms toolrun signs with (RFC 7518 §3): ES256 and RS256 are the ones the MCP
 * authorization extensions and the conformance suite use; ES384 comes free with the same code.
 */
export type JwtAlgorithm = 'ES256' | 'ES384' | 'RS256';

const HASH: Record<JwtAlgorithm, string> = { ES256: 'sha256', ES384: 'sha384', RS256: 'sha256' };
/** The EC curve each ECDSA algorithm needs (RFC 7518 §3.4). */
const CURVE: Partial<Record<JwtAlgorithm, string>> = { ES256: 'prime256v1', ES384: 'secp384r1' };

export function base64url(input: Buffer | string): string {
  return Buffer.from(input).toString('base64url');
}

/** A compact JWS (RFC 7515 §7.1): `alg` set from `algorithm`, ECDSA signatures as R‖S (RFC 7518 §3.4), not DER. */
export function signJwt(header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject, algorithm: JwtAlgorithm): string {
  const input = `${base64url(JSON.stringify({ alg: algorithm, ...header }))}.${base64url(JSON.stringify(payload))}`;
  const signature = algorithm.startsWith('ES') ? sign(HASH[algorithm], Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }) : sign(HASH[algorithm], Buffer.from(input), key);
  return `${input}.${base64url(signature)}`;
}

/**
 * A private key from PEM text (PKCS#8, SEC1 or PKCS#1) and the algorithm it signs with: `wanted`
 * when the key fits it, else the key's own (P-256 → ES256, P-384 → ES384, RSA → RS256). `what`
 * names where the key came from in the one-line error; the key itself is never quoted.
 */
export function signingKey(pem: string, what: string, wanted?: string): { key: KeyObject; algorithm: JwtAlgorithm } {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new AuthFlowError(`${what} is not a PEM private key (${firstLine((error as Error).message)})`, {
      fix: 'give a PKCS#8 or SEC1 EC key, or an RSA key, such as `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`',
    });
  }
  const own = ownAlgorithm(key);
  if (!own) throw new AuthFlowError(`${what} is a ${key.asymmetricKeyType ?? 'symmetric'} key; toolrun signs with EC P-256/P-384 (ES256/ES384) or RSA (RS256) keys`);
  if (wanted && wanted !== own) {
    throw new AuthFlowError(`${what} cannot sign ${wanted}: it is a key for ${own}`, { fix: `set the signing algorithm to ${own}, or give a key for ${wanted}` });
  }
  return { key, algorithm: own };
}

function ownAlgorithm(key: KeyObject): JwtAlgorithm | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType !== 'ec') return undefined;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  return (Object.keys(CURVE) as JwtAlgorithm[]).find((algorithm) => CURVE[algorithm] === curve);
}

/** The claims of a JWT, unverified (for the client's own checks: expiry, audience); undefined when it is not one. */
export function unverifiedClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    return claims && typeof claims === 'object' && !Array.isArray(claims) ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function firstLine(text: string): string {
  return text
    .split('\n')[0]!
    .replace(/^error:[0-9A-F]+:/i, '')
    .trim();
}
