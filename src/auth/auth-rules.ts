/**
 * The rules of the MCP authorization spec (2025-11-25, 2026-07-28) and the RFCs it cites that a
 * server or an authorization server can break, as doctor names them: an id for --json and tests,
 * the rule in one sentence (with its source), and what to change. The trace fills in the facts.
 */
export interface AuthRule {
  id: AuthRuleId;
  text: string;
}

export type AuthRuleId =
  | 'no-resource-metadata'
  | 'prm-missing'
  | 'prm-not-json'
  | 'prm-resource-mismatch'
  | 'no-authorization-servers'
  | 'as-metadata-missing'
  | 'as-metadata-not-json'
  | 'issuer-mismatch'
  | 'no-s256'
  | 'endpoints-missing'
  | 'no-registration'
  | 'registration-refused'
  | 'redirect-uri-unknown'
  | 'authorization-refused'
  | 'iss-mismatch'
  | 'invalid-request-not-invalid-grant'
  | 'token-endpoint-error'
  | 'bogus-code-accepted'
  | 'grant-not-supported';

/** A rule broken, with the facts that show it, and the fix. */
export interface BrokenRule {
  rule: AuthRule;
  fix: string;
}

export function brokenRule(id: AuthRuleId, facts: string, fix: string): BrokenRule {
  return { rule: { id, text: `${facts} (${SOURCES[id]})` }, fix };
}

/** Where each rule comes from: the part of the spec a maintainer reads to check doctor's word. */
const SOURCES: Record<AuthRuleId, string> = {
  'no-resource-metadata': 'RFC 9728; MCP authorization: servers MUST name resource_metadata in WWW-Authenticate or serve it at a well-known URL',
  'prm-missing': 'RFC 9728 §5.1; MCP authorization: clients use the resource_metadata URL when present',
  'prm-not-json': 'RFC 9728 §3.2: a JSON object',
  'prm-resource-mismatch': 'RFC 9728 §3.3: clients MUST NOT use metadata for another resource',
  'no-authorization-servers': 'MCP authorization: the metadata MUST include at least one authorization server',
  'as-metadata-missing': 'MCP authorization: RFC 8414 or OpenID Connect Discovery, at the well-known URLs in order',
  'as-metadata-not-json': 'RFC 8414 §3.2: a JSON object',
  'issuer-mismatch': 'RFC 8414 §3.3; MCP authorization: the issuer MUST be identical, else clients MUST NOT use the metadata',
  'no-s256': 'MCP authorization: clients MUST refuse to proceed without PKCE S256 in code_challenge_methods_supported',
  'endpoints-missing': 'RFC 8414 §2: authorization_endpoint and token_endpoint are required for the code flow',
  'no-registration': 'MCP authorization: a client ID comes from pre-registration, a Client ID Metadata Document or dynamic registration',
  'registration-refused': 'RFC 7591 §3.2.2; MCP authorization: native clients register with application_type "native" and loopback redirect URIs',
  'redirect-uri-unknown': 'OAuth 2.1 §2.3.1: the exact redirect URI registered MUST be accepted',
  'authorization-refused': 'OAuth 2.1 §4.1.1: a well-formed request from a registered client, with PKCE S256 and a resource indicator, is answered with a login, not an error',
  'iss-mismatch': 'RFC 9207 §2.4: clients MUST NOT use a response from another issuer',
  'invalid-request-not-invalid-grant': 'RFC 6749 §5.2: an invalid, expired or unknown code is invalid_grant, which is how clients know to log in again',
  'token-endpoint-error': 'RFC 6749 §5.2: a refused code is a 400 with an OAuth error such as invalid_grant; a 5xx is the authorization server failing',
  'bogus-code-accepted': 'OAuth 2.1 §4.1.3: the code MUST be one the server issued, bound to the client and PKCE verifier',
  'grant-not-supported': 'RFC 8414 §2: grant_types_supported lists the grants the authorization server takes; the extensions (SEP-1046, SEP-1933, SEP-990) require theirs to be listed',
};
