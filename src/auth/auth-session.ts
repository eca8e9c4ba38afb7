import { AuthFlowError, AuthRequiredError } from './auth-errors.js';
import type { InlineLogin, LoginTarget } from './inline-login.js';
import { isMachineGrant } from './machine-grants.js';
import { obtainMachineTokens } from './machine-token.js';
import { StoredOAuthProvider } from './provider.js';
import { checkServerScope } from './scope-syntax.js';
import type { TokenStore } from './token-store.js';
import type { TokenChallenge } from './www-authenticate.js';
import { maskThenCut } from '../secrets/mask-secrets.js';

/**
 * Re-authorizations one command may start for one server: a first login, one for more scopes, and one
 * after the server stopped accepting a token it had accepted (revoked, or moved to another
 * authorization server: SEP-2352).
 */
const MAX_INLINE_LOGINS = 3;

/**
 * The access token of one remote server for one command: the stored one (refreshed under the lock
 * when expired or refused), else a login run inline when someone can answer a browser, else
 * AuthRequiredError (exit 4 naming `toolrun auth login SERVER`). Each scope set is asked for once:
 * an authorization server that keeps refusing never starts a loop.
 */
export class AuthSession {
  /** The logins started, by scope set: a request that meets one under way waits for it; one that ended is not started again. */
  private readonly logins = new Map<string, { promise: Promise<void>; done: boolean }>();
  private loginsStarted = 0;
  /** The scope sets a machine grant asked for after a 403: each once. */
  private readonly machineScopesAsked = new Set<string>();
  /** Tokens the server answered with something other than 401: refusing one later means something changed on its side. */
  private readonly accepted = new Set<string>();

  constructor(
    private readonly server: LoginTarget,
    private readonly store: TokenStore,
    public provider: StoredOAuthProvider | undefined,
    private readonly login: InlineLogin | undefined,
  ) {}

  /** The MCP endpoint: what the session's tokens are for. */
  get serverUrl(): string {
    return this.server.url;
  }

  /**
   * The token to send with a request; undefined when nothing usable is stored and someone can log in:
   * the request goes without one, and the server's 401 challenge names the scopes to ask for. With
   * no one to log in, AuthRequiredError at once (exit 4 naming `toolrun auth login SERVER`).
   */
  async token(): Promise<string | undefined> {
    if (!this.provider) return undefined;
    // A grant with no person: a token now when discovery is known, else the server's challenge says where to ask.
    if (this.isMachine) return (await this.provider.tokens())?.access_token ?? (this.provider.current.discovery ? (await obtainMachineTokens(this.store, this.provider, {})).access_token : undefined);
    try {
      return (await this.provider.tokens())?.access_token;
    } catch (error) {
      if (!(error instanceof AuthRequiredError) || !this.login) throw error;
      return undefined;
    }
  }

  /** The server answered a request that carried `token` with something other than a 401. */
  noteAccepted(token: string | undefined): void {
    if (token) this.accepted.add(token);
  }

  /** The headers presenting `token` (Bearer, or DPoP with a proof for this request). */
  present(headers: Headers, token: string, method: string, url: string): Headers {
    if (this.provider) return this.provider.presentToken(headers, token, method, url);
    headers.set('authorization', `Bearer ${token}`);
    return headers;
  }

  /** A 401 with a Bearer or DPoP challenge to a request that carried `sent` (or no token). */
  async afterUnauthorized(sent: string | undefined, challenge: TokenChallenge): Promise<string> {
    const name = this.server.name;
    const challengeScope = checkServerScope(challenge.params.scope, name, 'its 401 challenge');
    if (this.provider && this.isMachine) {
      const named = challenge.params.resource_metadata;
      const resourceMetadataUrl = named && URL.canParse(named, this.server.url) ? new URL(named, this.server.url) : undefined;
      return (await obtainMachineTokens(this.store, this.provider, { resourceMetadataUrl, scope: challengeScope, offersDpop: challenge.offersDpop }, { rejected: sent })).access_token;
    }
    if (this.provider) {
      try {
        if (sent) return await this.provider.refreshAfter401(sent);
        // Sent without a token: one a concurrent login or refresh got meanwhile, else a login.
        const current = await this.token();
        if (current) return current;
        throw new AuthRequiredError(name, `'${name}' asks for an OAuth login (HTTP 401 with a Bearer challenge) and no usable token is stored`);
      } catch (error) {
        if (!(error instanceof AuthRequiredError)) throw error;
        return this.reauthorize(error, challengeScope, sent, sent !== undefined && this.accepted.has(sent));
      }
    }
    return this.reauthorize(new AuthRequiredError(name, `'${name}' asks for an OAuth login (HTTP 401 with a Bearer challenge) and no token is stored`), challengeScope, sent);
  }

  /** A 403 `insufficient_scope`: authorize again with the stored scopes and the ones the challenge names. */
  async afterInsufficientScope(sent: string | undefined, challengeScope: string | undefined): Promise<string> {
    const name = this.server.name;
    challengeScope = checkServerScope(challengeScope, name, 'its 403 insufficient_scope challenge');
    // Sent before a concurrent re-authorization ended: try the newer token first.
    const current = this.provider?.current.tokens?.access_token;
    if (current && current !== sent) return current;
    const stored = checkServerScope(this.provider?.current.tokens?.scope, name, 'the stored token (its authorization server granted it)') ?? this.server.oauth?.scope ?? '';
    const union = [...new Set([...stored.split(' '), ...(challengeScope ?? '').split(' ')].filter(Boolean))].join(' ');
    const why = `'${name}' refused the token for lack of scope${challengeScope ? ` '${challengeScope}'` : ''} (HTTP 403 insufficient_scope)`;
    // A grant with no person asks its authorization server itself, once per scope set: no browser, no `auth login`.
    if (this.provider && this.isMachine) {
      if (this.machineScopesAsked.has(union)) {
        throw new AuthFlowError(`${why}, and a token with scopes '${union}' was already asked for`, { fix: 'let this client have those scopes at the authorization server' });
      }
      this.machineScopesAsked.add(union);
      return (await obtainMachineTokens(this.store, this.provider, {}, { rejected: sent, scope: union || undefined })).access_token;
    }
    return this.reauthorize(new AuthRequiredError(name, why, { scope: union || undefined }), union || undefined, sent);
  }

  /** The server refused even the token just refreshed or obtained; what its challenge said, in one line. */
  refused(challenge?: TokenChallenge): AuthRequiredError | AuthFlowError {
    const name = this.server.name;
    const { error, error_description: description } = challenge?.params ?? {};
    const said = error ? `: ${challenge!.scheme === 'dpop' ? 'DPoP' : 'Bearer'} error="${error}"${description ? `, ${maskThenCut(description.replace(/\s+/g, ' '), 200)}` : ''}` : '';
    const why = `'${name}' refused the OAuth token toolrun just got (HTTP 401 again${said})`;
    if (this.isMachine) return new AuthFlowError(why, { fix: 'check the scopes and audience the authorization server grants this client' });
    return new AuthRequiredError(name, why);
  }

  private get isMachine(): boolean {
    return this.provider !== undefined && isMachineGrant(this.provider.grant);
  }

  /**
   * A login for `scope`, or the one under way. A scope set already asked for is not asked again (no
   * loop with a server that keeps refusing), unless `acceptedBefore`: the refused token had worked in
   * this command, so the server changed its mind (a revoked token, a new authorization server).
   */
  private async reauthorize(why: AuthRequiredError, scope: string | undefined, refused: string | undefined, acceptedBefore = false): Promise<string> {
    const key = scope ?? '';
    let login = this.logins.get(key);
    if (login?.done && !acceptedBefore) throw why;
    if (!login || login.done) {
      const run = this.login;
      if (!run || this.loginsStarted >= MAX_INLINE_LOGINS) throw why;
      this.loginsStarted++;
      const started = { done: false, promise: Promise.resolve() };
      started.promise = run(this.server, scope, refused).then(() => {
        this.provider = new StoredOAuthProvider({ server: this.server, store: this.store, mode: 'connect' });
      });
      void started.promise.finally(() => (started.done = true)).catch(() => {});
      this.logins.set(key, (login = started));
    }
    await login.promise;
    const tokens = await this.provider!.tokens();
    if (!tokens) throw why;
    return tokens.access_token;
  }
}
