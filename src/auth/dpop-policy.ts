import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { AuthFlowError } from './auth-errors.js';
import { DPOP_ALGORITHM } from './dpop.js';

/**
 * Whether a server's tokens are to be DPoP-bound (RFC 9449): the entry's `dpop` when set; unset,
 * when both sides take them: the authorization server lists ES256 in
 * `dpop_signing_alg_values_supported` (the sign of support the DPoP extension defines), and the MCP
 * server offered the DPoP scheme in its challenge, or its protected resource metadata lists DPoP
 * (RFC 9728 §2), or its tokens were DPoP-bound before (`keyStored`). An authorization server that
 * supports DPoP in front of a resource server that does not would otherwise bind every token to a
 * scheme the server refuses. An authorization server that takes DPoP but not ES256 is named.
 */
export function wantsDpop(server: { name: string; oauth?: { dpop?: boolean } }, discovery: OAuthDiscoveryState | undefined, resource: { offersDpop: boolean; keyStored: boolean }): boolean {
  const wanted = server.oauth?.dpop;
  const algorithms = (discovery?.authorizationServerMetadata as { dpop_signing_alg_values_supported?: string[] } | undefined)?.dpop_signing_alg_values_supported;
  const metadata = discovery?.resourceMetadata as { dpop_signing_alg_values_supported?: string[]; dpop_bound_access_tokens_required?: boolean } | undefined;
  const resourceTakesDpop =
    resource.offersDpop || resource.keyStored || metadata?.dpop_bound_access_tokens_required === true || metadata?.dpop_signing_alg_values_supported?.includes(DPOP_ALGORITHM) === true;
  if (wanted === false || (wanted === undefined && !(algorithms?.includes(DPOP_ALGORITHM) && resourceTakesDpop))) return false;
  if (algorithms && !algorithms.includes(DPOP_ALGORITHM))
    throw new AuthFlowError(`the authorization server of '${server.name}' takes DPoP proofs signed with ${algorithms.join(', ') || 'nothing'}, not ${DPOP_ALGORITHM}`, {
      fix: 'set oauth.dpop to false',
    });
  return true;
}
