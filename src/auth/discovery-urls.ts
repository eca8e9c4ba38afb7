/**
 * Where metadata is looked for, in the order the MCP authorization spec requires (2025-11-25 and
 * 2026-07-28, "Authorization Server Metadata Discovery" and "Protected Resource Metadata Discovery").
 */

/** RFC 9728 §3.1: the well-known suffix inserted before the resource's path, then at the root. */
export function resourceMetadataUrls(resource: URL): URL[] {
  const path = resource.pathname.replace(/\/$/, '');
  const atRoot = new URL('/.well-known/oauth-protected-resource', resource.origin);
  return path ? [new URL(`/.well-known/oauth-protected-resource${path}`, resource.origin), atRoot] : [atRoot];
}

/**
 * RFC 8414 §3.1 and OpenID Connect Discovery 1.0: for an issuer with a path, OAuth with path
 * insertion, OIDC with path insertion, OIDC with the path appended; without a path, OAuth then OIDC.
 */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, '');
  if (!path) return [new URL('/.well-known/oauth-authorization-server', issuer.origin), new URL('/.well-known/openid-configuration', issuer.origin)];
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
  ];
}

/**
 * Whether protected resource metadata for `advertised` may be used for `requested` (RFC 9728 §3.3
 * asks for identical; the MCP SDK's login, which toolrun uses, also accepts a parent path on the
 * same origin, so doctor does too and notes the difference).
 */
export function resourceMatches(requested: URL, advertised: URL): 'identical' | 'parent' | 'different' {
  const strip = (url: URL) => url.href.replace(/\/$/, '');
  if (strip(requested) === strip(advertised)) return 'identical';
  if (requested.origin !== advertised.origin) return 'different';
  const withSlash = (path: string) => (path.endsWith('/') ? path : `${path}/`);
  return withSlash(requested.pathname).startsWith(withSlash(advertised.pathname)) ? 'parent' : 'different';
}
