import { discoverOAuthServerInfo, fetchToken, selectResourceURL, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AuthFlowError } from './auth-errors.js';
import { assertionHint } from './assertion-check.js';
import { limitedAuthFetch } from './auth-request-limits.js';
import { configClientRefused, describeRefusal } from './client-refused.js';
import { dpopTokenFetch } from './dpop-token-fetch.js';
import type { StoredOAuthProvider } from './provider.js';
import { withFileLock, type LockLimits } from './refresh-lock.js';
import { sameIssuer } from './check-discovery.js';
import { coversScopes } from './scope-syntax.js';
import { isUsable } from './token-expiry.js';
import type { StoredTokens, TokenStore } from './token-store.js';
import { ToolrunError } from '../errors.js';
import { toolrunCommand } from '../text/quote-shell-word.js';

/** What a 401 challenge told about where to authorize (RFC 9728 `resource_metadata`) and for what (`scope`). */
export interface AuthChallengeHints {
  resourceMetadataUrl?: URL;
  scope?: string;
  /** The challenge offered the DPoP scheme. */
  offersDpop?: boolean;
}

/**
 * A token for a grant that needs no person (client_credentials, jwt_bearer, enterprise), got once
 * across every toolrun running: under the store's lock, a usable token another process got
 * meanwhile (other than `rejected`, the one the server just refused) is taken instead. Discovery is
 * reused from the store unless the server refused a token with a 401 (it may have moved to another
 * authorization server) or this is `auth login` (`fresh`: a new token, discovery done anew); a 403's
 * `scope` keeps it (the token was valid, only short of scopes). One token request, no retry and no
 * other grant tried on a refusal: the refusal is the answer (SEP-1933), said in one line naming the
 * field to fix.
 */
export async function obtainMachineTokens(
  store: TokenStore,
  provider: StoredOAuthProvider,
  hints: AuthChallengeHints,
  { rejected, fresh = false, scope, wrapFetch = (base) => base }: { rejected?: string; fresh?: boolean; scope?: string; wrapFetch?: (base: FetchLike) => FetchLike } = {},
): Promise<StoredTokens> {
  const server = provider.server;
  store.ensureDirectory();
  return withFileLock(
    `${store.pathOf(server.name, server.url)}.lock`,
    async () => {
      provider.reload();
      if (hints.offersDpop) provider.resourceOffersDpop = true;
      const stored = provider.current.tokens;
      // Another toolrun's token serves this one too: not the refused one, and with the scopes a 403 asked for.
      if (!fresh && isUsable(stored) && stored!.access_token !== rejected && coversScopes(stored!.scope, scope)) return stored!;
      // Each request recorded as it goes out when doctor traces (wrapFetch): a DPoP nonce retry is a request of its own.
      provider.flowFetch = wrapFetch(limitedAuthFetch());
      const fetchFn = dpopTokenFetch(provider.flowFetch, () => provider.dpopKeyForTokenRequests());
      let discovery = fresh || (rejected && scope === undefined) ? undefined : provider.current.discovery;
      if (!discovery?.authorizationServerUrl) {
        const found = await discoverOAuthServerInfo(server.url, { resourceMetadataUrl: hints.resourceMetadataUrl, fetchFn });
        discovery = {
          authorizationServerUrl: String(found.authorizationServerUrl),
          resourceMetadataUrl: hints.resourceMetadataUrl?.toString(),
          resourceMetadata: found.resourceMetadata,
          authorizationServerMetadata: found.authorizationServerMetadata,
        } satisfies OAuthDiscoveryState;
        provider.saveDiscoveryState(discovery);
      }
      checkPinnedIssuer(provider, discovery.authorizationServerMetadata?.issuer ?? discovery.authorizationServerUrl);
      // Checked against the server's URL (a resource that is not this server's is refused); then sent verbatim, as the login does.
      const selected = await selectResourceURL(server.url, provider, discovery.resourceMetadata);
      const resource = selected && discovery.resourceMetadata ? discovery.resourceMetadata.resource : selected?.href;
      // A 403's union of scopes (`scope`) over the entry's, over the challenge's.
      provider.requestScope = scope ?? server.oauth?.scope ?? hints.scope;
      try {
        const tokens = await fetchToken(provider, discovery.authorizationServerUrl, { metadata: discovery.authorizationServerMetadata, resource: resource as unknown as URL | undefined, fetchFn });
        provider.saveTokens({ ...tokens, issuer: discovery.authorizationServerUrl });
      } catch (error) {
        throw machineGrantRefused(provider, error, [discovery.authorizationServerMetadata?.issuer ?? discovery.authorizationServerUrl, discovery.authorizationServerMetadata?.token_endpoint]);
      }
      return provider.current.tokens!;
    },
    MACHINE_GRANT_LOCK,
  );
}

/**
 * Under the lock: a credential command (30 s at most), discovery, the identity provider's exchange and
 * the token request with a nonce retry (10 s each at most). A parallel toolrun waits that long, and
 * the lock is not taken over as stale before.
 */
const MACHINE_GRANT_LOCK: LockLimits = { staleMs: 120_000, waitMs: 120_000, doing: 'getting a token' };

/**
 * `oauth.issuer` pins the authorization server: a workload token or an ID-JAG goes to no other, so an
 * MCP server whose metadata names another is refused (client_credentials keeps its own rule: the
 * secret is withheld with a warning, token-refresh.ts clientOf).
 */
function checkPinnedIssuer(provider: StoredOAuthProvider, found: string): void {
  const { name, oauth } = provider.server;
  if (!oauth?.issuer || oauth.grant === 'client_credentials' || sameIssuer(oauth.issuer, found)) return;
  throw new AuthFlowError(
    `'${name}' names the authorization server ${found}, not ${oauth.issuer} that oauth.issuer pins: toolrun sends its ${oauth.grant === 'enterprise' ? 'ID-JAG' : 'assertion'} to no other`,
    {
      fix: 'check the server URL, or change oauth.issuer if the server really moved',
    },
  );
}

const GRANT_WORDS = { client_credentials: 'client_credentials', jwt_bearer: 'JWT-bearer', enterprise: 'ID-JAG' } as const;

/** The token endpoint's refusal in one line: the client (its id, secret or key), the assertion (expired, another audience), or what it said. */
function machineGrantRefused(provider: StoredOAuthProvider, error: unknown, audiences: Array<string | undefined>): Error {
  if (error instanceof ToolrunError) return error;
  const server = provider.server;
  const grant = server.oauth?.grant ?? 'client_credentials';
  const code = (error as { errorCode?: string }).errorCode;
  const said = code ? describeRefusal(code, error) : String((error as Error)?.message ?? error);
  if ((code === 'invalid_client' || (code === 'unauthorized_client' && grant === 'client_credentials')) && server.oauth?.clientId) return configClientRefused(server, said, error);
  const assertion = provider.lastAssertion;
  if (grant !== 'client_credentials' && assertion && (code === 'invalid_grant' || code === 'unauthorized_client')) {
    const fix =
      grant === 'jwt_bearer'
        ? 'check the token the workload presents (its audience, expiry and issuer) and the trust set up at the authorization server'
        : 'check that the identity provider may grant this client access to the MCP server';
    return new AuthFlowError(`the authorization server refused the ${GRANT_WORDS[grant as keyof typeof GRANT_WORDS]} assertion of '${server.name}' (${said})${assertionHint(assertion, audiences)}`, {
      cause: error,
      fix,
    });
  }
  // An authorization server that binds this client's tokens refuses a request without a proof, often with a bare invalid_grant.
  const dpopOff = server.oauth?.dpop === false && provider.current.discovery?.authorizationServerMetadata?.['dpop_signing_alg_values_supported' as never] !== undefined;
  const hint = dpopOff ? '; DPoP was not used (oauth.dpop is false) and the authorization server supports it: it may require DPoP-bound tokens' : '';
  // Not a broken rule of the flow (the generic fix): what the authorization server wants for this grant, which doctor's trace shows.
  return new AuthFlowError(`getting an OAuth token for '${server.name}' (grant ${grant}) failed: ${said}${hint}`, {
    cause: error,
    fix: `\`${toolrunCommand('mcp', 'doctor', server.name)}\` traces the token request and what the authorization server answered`,
  });
}
