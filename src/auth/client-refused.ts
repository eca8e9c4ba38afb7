import { AuthFlowError, AuthRequiredError } from './auth-errors.js';
import { maskThenCut } from '../secrets/mask-secrets.js';
import type { OAuthSettings } from '../config/config-types.js';
import type { AuthRecord, TokenStore } from './token-store.js';

/** The server as this file needs it (not token-refresh's AuthServer: that would be an import cycle). */
interface RefusedServer {
  name: string;
  oauth?: OAuthSettings;
}

/**
 * The token endpoint refused the client itself (`invalid_client`, `unauthorized_client`), not its
 * grant. A dynamic registration the authorization server forgot (a reset, an expiry) is dropped with
 * its tokens and marked, so `auth status` tells the truth and the next login registers again instead
 * of sending a dead client id to /authorize. The config's own client is the user's to fix: its id or
 * secret is named, nothing stored changes. Returns the error to throw (exit 4 either way).
 */
export function clientRefused(store: TokenStore, record: AuthRecord, server: RefusedServer, errorCode: string, cause: unknown): Error {
  const said = describeRefusal(errorCode, cause);
  if (server.oauth?.clientId) return configClientRefused(server, said, cause);
  delete record.client;
  delete record.tokens;
  record.registrationRefused = new Date().toISOString();
  store.write(record);
  return new AuthRequiredError(server.name, `toolrun's registration for '${server.name}' was refused by the authorization server (${said}) and dropped; the next login registers again`, { cause });
}

/** The entry's `oauth.clientId`/`clientSecret` refused at the token endpoint: one line naming them. */
export function configClientRefused(server: RefusedServer, said: string, cause?: unknown): AuthFlowError {
  const oauth = server.oauth;
  const secret = oauth?.clientSecret
    ? ' and oauth.clientSecret'
    : oauth?.privateKey !== undefined || oauth?.privateKeyFile !== undefined
      ? ' and oauth.privateKey (its public key must be registered there)'
      : '';
  return new AuthFlowError(`the authorization server refused the client of '${server.name}' (${said})`, {
    cause,
    fix: `check oauth.clientId${secret} in the entry of '${server.name}' (the ones the authorization server issued)`,
  });
}

/** `invalid_client`, with the authorization server's own description when it gave one (one line). */
export function describeRefusal(errorCode: string, cause: unknown): string {
  // Masked, then cut (maskThenCut): cut first, a client assertion the server echoed lost its last
  // part and no longer looked like a JWT, and 190 characters of it were shown (issue 48 item 8).
  const message = maskThenCut(
    String((cause as { message?: unknown })?.message ?? '')
      .replace(/\s+/g, ' ')
      .trim(),
    200,
  );
  return message && message !== errorCode ? `${errorCode}: ${message}` : errorCode;
}
