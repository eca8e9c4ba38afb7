import { AuthFlowError } from './auth-errors.js';
import { sameIssuer } from './check-discovery.js';
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
 * A workload token is a credential for the authorization server it names in `aud`: sent to another
 * (one a compromised MCP server's metadata points at), it could be replayed at the real one. Refused
 * before it is sent when its audience is none of the authorization server's identifiers (its issuer,
 * its token endpoint: RFC 7523 §3, SEP-1933). A token without `aud`, or not a JWT, is left to the server.
 */
export function checkAudience(token: string, accepted: Array<string | undefined>, what: string): void {
  const problem = assertionHint(token, accepted);
  if (problem)
    throw new AuthFlowError(`${what} is not for this authorization server${problem}: toolrun does not send it there`, {
      fix: 'request the token for the authorization server the MCP server names (its audience), or check the server URL',
    });
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
  if (audiences.some((item) => known.some((other) => sameIssuer(item, other)))) return '';
  return `; the assertion's audience is ${audiences.join(', ')}, not the authorization server (${known.join(' or ')})`;
}
