import { AuthFlowError } from './auth-errors.js';
import { unverifiedClaims } from './jwt-sign.js';

/**
 * A JWT the client was handed to present (a workload's OIDC token, an identity provider's ID token)
 * that has expired is refused before it is sent, naming when it expired: the authorization server
 * would say only `invalid_grant`. A token that is not a JWT, or has no `exp`, is left to the server.
 */
export function checkNotExpired(token: string, what: string, now = Date.now()): void {
  const exp = unverifiedClaims(token)?.exp;
  if (typeof exp !== 'number' || exp * 1000 > now) return;
  const ago = Math.round((now - exp * 1000) / 1000);
  throw new AuthFlowError(`${what} expired at ${new Date(exp * 1000).toISOString()} (${ago} s ago)`, { fix: 'get a fresh one (it is read anew at each token request)' });
}

/**
 * What a refused assertion's own claims say about the refusal: its audience when it is none of the
 * authorization server's identifiers (`accepted`: its issuer, its token endpoint; RFC 7523 §3 allows either).
 */
export function assertionHint(token: string, accepted: Array<string | undefined>): string {
  const aud = unverifiedClaims(token)?.aud;
  const audiences = (Array.isArray(aud) ? aud : [aud]).filter((item): item is string => typeof item === 'string');
  const known = accepted.filter((item): item is string => typeof item === 'string');
  if (known.length === 0 || audiences.length === 0) return '';
  const normal = (value: string) => value.replace(/\/+$/, '');
  if (audiences.some((item) => known.some((other) => normal(item) === normal(other)))) return '';
  return `; the assertion's audience is ${audiences.join(', ')}, not the authorization server (${known.join(' or ')})`;
}
