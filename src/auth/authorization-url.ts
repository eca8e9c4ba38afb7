import { AuthFlowError } from './auth-errors.js';
import { maskThenCut } from '../secrets/mask-secrets.js';

/**
 * The authorization URL toolrun hands to a browser comes from the authorization server's metadata,
 * which a hostile server chooses: a `file:` URL, a custom scheme (`vscode://…`, `ms-settings:`)
 * or a plain-http page on the network is not a login page (RFC 8252 §8.1 and OAuth 2.1 §1.5: the
 * authorization endpoint is served over TLS). Refused before any opener runs (exit 4), unless https,
 * or http on a loopback host (a development authorization server on this machine).
 */
export function checkAuthorizationUrl(url: URL): void {
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return;
  const shown = maskThenCut(url.href, 201, '…');
  throw new AuthFlowError(`the authorization server's authorization URL ${JSON.stringify(shown)} is not https (http only on this machine: 127.0.0.1, ::1, localhost): toolrun does not open it`);
}

/** 127.0.0.0/8, ::1 and localhost: this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}
