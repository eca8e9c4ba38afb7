import { brokenRule, type BrokenRule } from './auth-rules.js';
import { oneLine, parseUrl } from './auth-tracer.js';
import { JWT_BEARER_GRANT } from './machine-grants.js';
import type { OAuthGrant } from '../config/config-types.js';

/**
 * What doctor checks of an authorization server for a grant with no person (SPEC §21), instead of
 * PKCE and a registration: a token endpoint, and the grant in `grant_types_supported` when the
 * metadata lists grants (RFC 8414 §2). Undefined when it is sound.
 */
export function machineGrantProblem(metadata: Record<string, unknown>, grant: OAuthGrant): BrokenRule | undefined {
  if (typeof metadata.token_endpoint !== 'string' || !parseUrl(metadata.token_endpoint))
    return brokenRule('endpoints-missing', 'the metadata has no token_endpoint', 'add token_endpoint to the authorization server metadata');
  const wanted = grant === 'client_credentials' ? 'client_credentials' : JWT_BEARER_GRANT;
  const grants = Array.isArray(metadata.grant_types_supported) ? metadata.grant_types_supported.map(String) : undefined;
  if (grants && !grants.includes(wanted))
    return brokenRule(
      'grant-not-supported',
      `grant_types_supported lists ${grants.map(oneLine).join(', ') || 'nothing'}, not ${wanted}`,
      `enable the ${wanted} grant at the authorization server, or use another oauth.grant`,
    );
  return undefined;
}
