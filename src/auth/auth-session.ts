import { AuthRequiredError } from './auth-errors.js';
import type { InlineLogin, LoginTarget } from './inline-login.js';
import { StoredOAuthProvider } from './provider.js';
import type { TokenStore } from './token-store.js';

/** Re-authorizations one command may start for one server: a first login, then one for more scopes. */
const MAX_INLINE_LOGINS = 2;

/**
 * The access token of one remote server for one command: the stored one (refreshed under the lock
 * when expired or refused), else a login run inline when someone can answer a browser, else
 * AuthRequiredError (exit 4 naming `toolrun auth login SERVER`). Each scope set is asked for once:
 * an authorization server that keeps refusing never starts a loop.
 */
export class AuthSession {
  /** The logins started, by scope set: a request that meets one under way waits for it; one that ended is not started again. */
  private readonly logins = new Map<string, { promise: Promise<void>; done: boolean }>();

  constructor(
    private readonly server: LoginTarget,
    private readonly store: TokenStore,
    public provider: StoredOAuthProvider | undefined,
    private readonly login: InlineLogin | undefined,
  ) {}

  /** The token to send with a request; undefined when nothing is stored (the server may not need one). */
  async token(): Promise<string | undefined> {
    if (!this.provider) return undefined;
    try {
      return (await this.provider.tokens())?.access_token;
    } catch (error) {
      if (!(error instanceof AuthRequiredError)) throw error;
      return this.reauthorize(error, undefined);
    }
  }

  /** A 401 with a Bearer challenge to a request that carried `sent` (or no token). */
  async afterUnauthorized(sent: string | undefined, challengeScope: string | undefined): Promise<string> {
    const name = this.server.name;
    if (this.provider) {
      try {
        // A request sent before a concurrent login or refresh ended: the refreshed token, without a new refresh.
        if (!sent) return (await this.token())!;
        return await this.provider.refreshAfter401(sent);
      } catch (error) {
        if (!(error instanceof AuthRequiredError)) throw error;
        return this.reauthorize(error, challengeScope);
      }
    }
    return this.reauthorize(new AuthRequiredError(name, `'${name}' asks for an OAuth login (HTTP 401 with a Bearer challenge) and no token is stored`), challengeScope);
  }

  /** A 403 `insufficient_scope`: authorize again with the stored scopes and the ones the challenge names. */
  async afterInsufficientScope(sent: string | undefined, challengeScope: string | undefined): Promise<string> {
    const name = this.server.name;
    // Sent before a concurrent re-authorization ended: try the newer token first.
    const current = this.provider?.current.tokens?.access_token;
    if (current && current !== sent) return current;
    const stored = this.provider?.current.tokens?.scope ?? this.server.oauth?.scope ?? '';
    const union = [...new Set([...stored.split(' '), ...(challengeScope ?? '').split(' ')].filter(Boolean))].join(' ');
    const why = `'${name}' refused the token for lack of scope${challengeScope ? ` '${challengeScope}'` : ''} (HTTP 403 insufficient_scope)`;
    return this.reauthorize(new AuthRequiredError(name, why, { scope: union || undefined }), union || undefined);
  }

  /** The server refused even the token just refreshed or obtained. */
  refused(): AuthRequiredError {
    const name = this.server.name;
    return new AuthRequiredError(name, `'${name}' refused the OAuth token toolrun just got (HTTP 401 again)`);
  }

  private async reauthorize(why: AuthRequiredError, scope: string | undefined): Promise<string> {
    const key = scope ?? '';
    let login = this.logins.get(key);
    if (login?.done) throw why;
    if (!login) {
      const run = this.login;
      if (!run || this.logins.size >= MAX_INLINE_LOGINS) throw why;
      const started = { done: false, promise: Promise.resolve() };
      started.promise = run(this.server, scope).then(() => {
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
