import { refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AuthServer } from './auth-server.js';
import { AuthFlowError, AuthRequiredError } from './auth-errors.js';
import { clientRefused } from './client-refused.js';
import { limitedAuthFetch } from './auth-request-limits.js';
import { authWarning } from './auth-warnings.js';
import { sameIssuer } from './check-discovery.js';
import { privateKeyJwtAuthentication } from './client-assertion.js';
import { DpopKey } from './dpop.js';
import { dpopTokenFetch } from './dpop-token-fetch.js';
import { withFileLock } from './refresh-lock.js';
import { isUsable, storedTokens } from './token-expiry.js';
import type { AuthRecord, StoredTokens, TokenStore } from './token-store.js';

export type { AuthServer } from './auth-server.js';

/**
 * The client as the token endpoint knows it: the config's pre-registered one, else the stored
 * registration. The config's clientSecret goes only to the authorization server `oauth.issuer` pins:
 * a server may name any authorization server in its metadata, and a secret sent there is given away.
 * Pinned and another found: a warning, and the client without its secret.
 */
export function clientOf(server: AuthServer, record: AuthRecord | undefined): OAuthClientInformationMixed | undefined {
  const oauth = server.oauth;
  if (!oauth?.clientId) return record?.client;
  const found = record?.discovery?.authorizationServerMetadata?.issuer ?? record?.discovery?.authorizationServerUrl;
  if (oauth.clientSecret && oauth.issuer && found && !sameIssuer(oauth.issuer, found)) {
    authWarning(`'${server.name}' names the authorization server ${found}, not ${oauth.issuer} that oauth.issuer pins: its clientSecret is not sent there`);
    return { client_id: oauth.clientId };
  }
  return { client_id: oauth.clientId, ...(oauth.clientSecret && { client_secret: oauth.clientSecret }) };
}

/**
 * New tokens for `server`, refreshed once across every toolrun running: under the store's lock,
 * the record is read again first, and a token other than `rejected` that is still usable means
 * another process refreshed meanwhile (its rotated refresh token must not be replayed).
 * `invalid_grant` clears the tokens: only a new login helps, and a loop of refused refreshes must not start.
 */
export async function refreshStoredTokens(store: TokenStore, server: AuthServer, rejected: string | undefined): Promise<StoredTokens> {
  return withFileLock(`${store.pathOf(server.name, server.url)}.lock`, async () => {
    const record = store.read(server.name, server.url);
    const tokens = record?.tokens;
    if (!record || !tokens) throw new AuthRequiredError(server.name, `no OAuth token is stored for '${server.name}'`);
    if (tokens.access_token !== rejected && isUsable(tokens)) return tokens;
    const discovery = record.discovery;
    const clientInformation = clientOf(server, record);
    if (!tokens.refresh_token || !discovery || !clientInformation) throw new AuthRequiredError(server.name, `the OAuth token of '${server.name}' expired and cannot be refreshed`);
    let fresh;
    try {
      fresh = await refreshAuthorization(discovery.authorizationServerUrl, {
        metadata: discovery.authorizationServerMetadata,
        clientInformation,
        refreshToken: tokens.refresh_token,
        // Verbatim, as the SDK sends it in the login (a URL object would add a "/" to a pathless resource).
        resource: record.resource as unknown as URL | undefined,
        // A DPoP-bound refresh token is refreshed with a proof of the same key (RFC 9449 §5); a keyed client signs its assertion.
        fetchFn: dpopTokenFetch(limitedAuthFetch(), () => (record.dpop && tokens.token_type?.toLowerCase() === 'dpop' ? DpopKey.fromStored(record.dpop) : undefined)),
        addClientAuthentication: privateKeyJwtAuthentication(server),
      });
    } catch (error) {
      if (error instanceof AuthFlowError) throw error;
      const errorCode = (error as { errorCode?: string }).errorCode;
      if (errorCode === 'invalid_client' || errorCode === 'unauthorized_client') throw clientRefused(store, record, server, errorCode, error);
      if (errorCode === 'invalid_grant') {
        delete record.tokens;
        store.write(record);
        throw new AuthRequiredError(server.name, `the authorization server refused the refresh token of '${server.name}' (invalid_grant); the tokens were cleared`, { cause: error });
      }
      throw new AuthFlowError(`refreshing the OAuth token of '${server.name}' failed: ${(error as Error).message}`, { cause: error });
    }
    record.tokens = { ...storedTokens(fresh), issuer: record.issuer };
    store.write(record);
    return record.tokens;
  });
}
