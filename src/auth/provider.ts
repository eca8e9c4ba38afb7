import { randomBytes } from 'node:crypto';
import { selectClientAuthMethod, type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { AuthFlowError, AuthRequiredError } from './auth-errors.js';
import { checkAuthorizationUrl } from './authorization-url.js';
import { configClientRefused } from './client-refused.js';
import { checkDiscovery } from './check-discovery.js';
import { checkServerScope } from './scope-syntax.js';
import { privateKeyJwtAuthentication, usesPrivateKeyJwt } from './client-assertion.js';
import { DpopKey } from './dpop.js';
import { wantsDpop } from './dpop-policy.js';
import { isMachineGrant, machineTokenRequest, registrationGrantTypes } from './machine-grants.js';
import { clientOf, refreshStoredTokens, type AuthServer } from './token-refresh.js';
import type { OAuthGrant } from '../config/config-types.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isUsable, storedTokens } from './token-expiry.js';
import type { AuthRecord, TokenStore } from './token-store.js';

export interface ProviderOptions {
  server: AuthServer;
  store: TokenStore;
  /**
   * `login`: `auth login`, or a login inline (a browser answers; discovery and registration done afresh).
   * `connect`: stored tokens only, refreshed under the lock; never a browser, never a registration
   * (AuthSession starts a `login` instead when someone can answer it).
   */
  mode: 'login' | 'connect';
  /** login: the loopback redirect listening now. */
  redirectUrl?: string;
  /** login: the scopes asked for (a registration limited to fewer is not reused). */
  scope?: string;
  /** login: opens or shows the authorization URL. */
  onAuthorizationUrl?: (url: URL) => Promise<void>;
}

/** The placeholder redirect of a connect-mode provider: the SDK only needs to know the flow is interactive. */
const STORED_REDIRECT = 'http://127.0.0.1/callback';

/** The SDK's OAuthClientProvider, backed by toolrun's token store (SPEC §14). */
export class StoredOAuthProvider implements OAuthClientProvider {
  private record: AuthRecord;
  private verifier: string | undefined;
  private readonly stateValue = randomBytes(16).toString('base64url');
  private dpopKey: DpopKey | undefined;
  /** private_key_jwt for every token request when the entry has a key; else the SDK's own choice (secret or none). */
  readonly addClientAuthentication: OAuthClientProvider['addClientAuthentication'];
  /** A machine grant's scope for this request: the entry's, else the server's challenge. */
  requestScope: string | undefined;
  /** The assertion of the last JWT-bearer request (jwt_bearer, enterprise): what a refusal says about it. */
  lastAssertion: string | undefined;
  /** The MCP server's challenge offered the DPoP scheme: it takes DPoP-bound tokens. */
  resourceOffersDpop = false;
  /** The fetch of requests the grant itself makes (the identity provider's token exchange): doctor records them. */
  flowFetch: FetchLike | undefined;

  constructor(private readonly options: ProviderOptions) {
    this.record = this.readRecord();
    this.addClientAuthentication = privateKeyJwtAuthentication(options.server);
  }

  get server(): AuthServer {
    return this.options.server;
  }

  get grant(): OAuthGrant {
    return this.options.server.oauth?.grant ?? 'authorization_code';
  }

  /** Reads the record again (another toolrun may have stored tokens meanwhile). */
  reload(): void {
    this.record = this.readRecord();
    this.dpopKey = undefined;
  }

  /** What is stored now (the caller prints issuer, scopes, expiry: never a token). */
  get current(): AuthRecord {
    return this.record;
  }

  /** The `state` this login sent, to check the callback's against. */
  get expectedState(): string {
    return this.stateValue;
  }

  get redirectUrl(): string | undefined {
    // No redirect: a grant with no person (machine-token.ts), no authorization endpoint.
    if (isMachineGrant(this.grant)) return undefined;
    return this.options.redirectUrl ?? this.record.redirectUrl ?? STORED_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const secret = this.options.server.oauth?.clientSecret;
    return {
      client_name: 'toolrun',
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types: registrationGrantTypes(this.grant),
      response_types: isMachineGrant(this.grant) ? [] : ['code'],
      token_endpoint_auth_method: usesPrivateKeyJwt(this.options.server) ? 'private_key_jwt' : secret ? 'client_secret_basic' : 'none',
      scope: this.requestScope ?? this.options.server.oauth?.scope,
      // The MCP authorization spec: a CLI is a native client, which may use a loopback redirect (RFC 8252).
      application_type: 'native',
    } as OAuthClientMetadata;
  }

  /** The entry's Client ID Metadata Document: the SDK uses it as the client_id where the authorization server supports it. */
  get clientMetadataUrl(): string | undefined {
    return this.options.server.oauth?.clientMetadataUrl;
  }

  state(): string {
    return this.stateValue;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const client = clientOf(this.options.server, this.record);
    if (this.options.server.oauth?.clientId || !client) return client;
    // A registration that does not know this login's redirect is of no use: register again.
    if (this.options.mode === 'login' && this.record.redirectUrl !== this.redirectUrl) return undefined;
    // Nor one registered for fewer scopes than this login asks for (a 403 insufficient_scope's union): invalid_scope otherwise.
    if (this.options.mode === 'login' && !registeredFor(client, this.options.scope)) return undefined;
    return client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    // The config's client stays in the config (its secret included): only the issuer stamp is kept.
    if (this.options.server.oauth?.clientId) this.record.issuer = client.issuer ?? this.record.issuer;
    else Object.assign(this.record, { client, redirectUrl: this.redirectUrl, issuer: client.issuer ?? this.record.issuer });
    delete this.record.registrationRefused;
    this.persist();
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    // A login always asks the authorization server anew (new scopes, another account).
    if (this.options.mode === 'login') return undefined;
    const tokens = this.record.tokens;
    if (isMachineGrant(this.grant)) return isUsable(tokens) ? tokens : undefined;
    if (!tokens) throw new AuthRequiredError(this.options.server.name, `'${this.options.server.name}' needs an OAuth login and no token is stored`);
    if (!isUsable(tokens)) this.record.tokens = await refreshStoredTokens(this.options.store, this.options.server, tokens.access_token);
    // Without its refresh token: toolrun refreshes under its lock (refreshAfter401), never the SDK on its own.
    return { access_token: this.record.tokens!.access_token, token_type: this.record.tokens!.token_type, issuer: this.record.tokens!.issuer };
  }

  /** The server refused `rejected`: refresh under the lock (or take what another process refreshed). */
  async refreshAfter401(rejected: string): Promise<string> {
    this.record.tokens = await refreshStoredTokens(this.options.store, this.options.server, rejected);
    return this.record.tokens.access_token;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.record.tokens = { ...storedTokens(tokens), issuer: tokens.issuer };
    this.record.issuer = tokens.issuer ?? this.record.issuer;
    // What `auth status` and doctor say of these tokens: how they were got (never a secret).
    this.record.grant = this.grant;
    this.record.clientAuthentication = this.clientAuthenticationMethod();
    this.persist();
  }

  /** How the client authenticates at the token endpoint: its key, else the SDK's choice for its secret or none. */
  private clientAuthenticationMethod(): string {
    if (usesPrivateKeyJwt(this.options.server)) return 'private_key_jwt';
    const client = clientOf(this.options.server, this.record);
    if (!client) return 'none';
    return selectClientAuthMethod(client, this.record.discovery?.authorizationServerMetadata?.token_endpoint_auth_methods_supported ?? []);
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.options.onAuthorizationUrl) {
      // Never handed to a browser unless it is a login page: https, or http on this machine.
      checkAuthorizationUrl(authorizationUrl);
      return this.options.onAuthorizationUrl(authorizationUrl);
    }
    // Reached from a 403 insufficient_scope (or a flow that needs a person): ask for the union of scopes.
    const name = this.options.server.name;
    const granted = checkServerScope(this.record.tokens?.scope, name, 'the stored token (its authorization server granted it)');
    const asked = checkServerScope(authorizationUrl.searchParams.get('scope') ?? undefined, name, 'the authorization request (from its challenge or metadata)');
    const wanted = new Set([...(granted ?? '').split(' '), ...(asked ?? '').split(' ')].filter(Boolean));
    const scope = [...wanted].join(' ');
    throw new AuthRequiredError(name, `'${name}' asks for an OAuth authorization${scope ? ` with scopes '${scope}'` : ''}`, { scope: scope || undefined });
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new AuthFlowError('no PKCE code verifier: the login was not started by this toolrun');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    // The SDK asks for 'all' only after invalid_client/unauthorized_client, then retries with the same
    // client: the config's own client cannot be re-registered, so its id or secret is named at once.
    if (scope === 'all' && this.options.server.oauth?.clientId) throw configClientRefused(this.options.server, 'refused at its token endpoint');
    if (scope === 'all' || scope === 'client') delete this.record.client;
    if (scope === 'all' || scope === 'tokens') delete this.record.tokens;
    if (scope === 'all' || scope === 'discovery') delete this.record.discovery;
    if (scope === 'verifier') this.verifier = undefined;
    this.persist();
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    // A login discovers afresh (the server may have moved); every other command reuses what it found: no requests.
    return this.options.mode === 'login' ? undefined : this.record.discovery;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    checkDiscovery(state, this.grant);
    if (this.options.mode === 'connect' && this.grant === 'authorization_code' && !this.clientInformation())
      throw new AuthRequiredError(this.options.server.name, `'${this.options.server.name}' needs an OAuth login`);
    this.record.discovery = state;
    this.record.resource = state.resourceMetadata?.resource ?? this.record.resource;
    this.persist();
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    if (!isMachineGrant(this.grant)) return undefined;
    const { params, assertion } = await machineTokenRequest(this.options.server, this.record.discovery, this.record.resource, scope, this.flowFetch);
    this.lastAssertion = assertion;
    return params;
  }

  /** The DPoP key of token requests when this server's tokens are to be DPoP-bound (dpop-policy.ts): made on first use, kept with the tokens. */
  dpopKeyForTokenRequests(): DpopKey | undefined {
    const bound = wantsDpop(this.options.server, this.record.discovery, { offersDpop: this.resourceOffersDpop, keyStored: this.record.dpop !== undefined });
    return bound ? this.storedDpopKey(true) : undefined;
  }

  /**
   * The headers that present `token` on a request to the MCP server: `Authorization: DPoP` and a
   * proof bound to this request and token when the authorization server issued it DPoP-bound
   * (`token_type: DPoP`), else `Authorization: Bearer`.
   */
  presentToken(headers: Headers, token: string, method: string, url: string): Headers {
    // By the stored token's type: an older token of the same binding (a request sent before a refresh) is bound to the same key.
    const bound = this.record.tokens?.token_type?.toLowerCase() === 'dpop';
    const key = bound ? this.storedDpopKey(false) : undefined;
    if (bound && !key) throw new AuthRequiredError(this.options.server.name, `the DPoP-bound token of '${this.options.server.name}' has no key stored beside it`);
    headers.set('authorization', `${key ? 'DPoP' : 'Bearer'} ${token}`);
    if (key) headers.set('dpop', key.proof(method, url, token));
    return headers;
  }

  private storedDpopKey(create: boolean): DpopKey | undefined {
    if (this.dpopKey) return this.dpopKey;
    if (this.record.dpop) return (this.dpopKey = DpopKey.fromStored(this.record.dpop));
    if (!create) return undefined;
    const { key, stored } = DpopKey.generate();
    this.record.dpop = stored;
    this.persist();
    return (this.dpopKey = key);
  }

  private readRecord(): AuthRecord {
    const { server, store } = this.options;
    return store.read(server.name, server.url) ?? { version: 1, server: server.name, serverUrl: server.url };
  }

  private persist(): void {
    this.options.store.write(this.record);
  }
}

/** Whether a dynamic registration allows `scope`: yes when either is unrestricted. */
function registeredFor(client: OAuthClientInformationMixed, scope: string | undefined): boolean {
  const registered = (client as { scope?: string }).scope;
  if (!scope || !registered) return true;
  const allowed = new Set(registered.split(' '));
  return scope.split(' ').every((item) => allowed.has(item));
}
