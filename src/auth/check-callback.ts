import type { AuthorizationServerMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { AuthFlowError } from './auth-errors.js';
import { oneLine } from './auth-tracer.js';

/**
 * The authorization code of a redirect, once the redirect is checked: `state` is the one this login
 * sent (else another site's code could be injected), and `iss` names the authorization server the
 * request went to (RFC 9207: required when its metadata says it sends one; checked whenever present,
 * by simple string comparison as §2.4 says: a trailing-slash variant of the issuer is another issuer).
 */
export function codeOfCallback(redirected: URL, expectedState: string, metadata: (AuthorizationServerMetadata & { authorization_response_iss_parameter_supported?: unknown }) | undefined): string {
  const params = redirected.searchParams;
  const error = params.get('error');
  // The authorization server's words: one line, controls spelled out, at most 300 characters (SPEC §8).
  const description = params.get('error_description');
  if (error) throw new AuthFlowError(`the authorization server refused the login: ${oneLine(error)}${description ? ` (${oneLine(description)})` : ''}`);
  if (params.get('state') !== expectedState) throw new AuthFlowError("the redirect's state is not the one this login sent: toolrun refuses its code (start the login again)");
  const iss = params.get('iss');
  if (!iss && metadata?.authorization_response_iss_parameter_supported === true)
    throw new AuthFlowError(`the redirect has no iss, though ${metadata.issuer} says it sends one (RFC 9207): toolrun refuses its code`);
  if (iss && metadata?.issuer && iss !== metadata.issuer) throw new AuthFlowError(`the redirect's iss is ${iss}, not ${metadata.issuer} (RFC 9207, a mix-up?): toolrun refuses its code`);
  const code = params.get('code');
  if (!code) throw new AuthFlowError('the redirect carries no authorization code');
  return code;
}
