import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { AuthFlowError } from './auth-errors.js';
import type { OAuthGrant } from '../config/config-types.js';

/**
 * What the SDK's discovery does not check (SPEC §14): the metadata's `issuer` is exactly the
 * authorization server it was fetched for (RFC 8414 §3.3: else a mix-up attack can send the code
 * elsewhere), and PKCE S256 is listed (the MCP spec: a server that does not list it is refused).
 * Metadata absent altogether is the 2025-03-26 fallback (default endpoints): nothing to check.
 */
export function checkDiscovery(state: OAuthDiscoveryState, grant: OAuthGrant): void {
  const metadata = state.authorizationServerMetadata;
  if (!metadata) return;
  if (!sameIssuer(metadata.issuer, state.authorizationServerUrl))
    throw new AuthFlowError(`the authorization server's metadata names issuer ${metadata.issuer}, not ${state.authorizationServerUrl} where it was found (RFC 8414 §3.3)`);
  if (grant === 'authorization_code' && !metadata.code_challenge_methods_supported?.includes('S256'))
    throw new AuthFlowError(`the authorization server ${metadata.issuer} does not list PKCE S256 in code_challenge_methods_supported; toolrun refuses to log in without it`);
}

/** Equal as URLs, a trailing "/" aside (`String(new URL(x))` adds one to a pathless issuer). */
export function sameIssuer(a: string, b: string): boolean {
  const normal = (value: string) => {
    try {
      return new URL(value).href.replace(/\/$/, '');
    } catch {
      return value.replace(/\/$/, '');
    }
  };
  return normal(a) === normal(b);
}
