import { withFileLock } from './refresh-lock.js';
import { coversScopes } from './scope-syntax.js';
import { isUsable } from './token-expiry.js';
import type { AuthServer } from './token-refresh.js';
import type { TokenStore } from './token-store.js';

/** A person may take minutes to consent: the lock of a login is held as long as a login may last. */
const LOGIN_LOCK = { staleMs: 6 * 60_000, waitMs: 6 * 60_000, doing: 'logging in' };

/**
 * Runs an inline login for `server` once across every toolrun running: parallel commands with an
 * empty token store would each open a browser. Under the store's login lock the record is read
 * again first: tokens another process got meanwhile, with the scopes asked for and other than the
 * one the server refused, serve this command too.
 */
export async function loginOnce(store: TokenStore, server: AuthServer, wanted: { scope?: string; refused?: string }, login: () => Promise<void>): Promise<'logged in' | 'another toolrun logged in'> {
  store.ensureDirectory();
  return withFileLock(
    `${store.pathOf(server.name, server.url)}.login.lock`,
    async () => {
      const tokens = store.read(server.name, server.url)?.tokens;
      // Not the token the server just refused (a revoked token, or one of another authorization server).
      if (isUsable(tokens) && tokens!.access_token !== wanted.refused && coversScopes(tokens!.scope, wanted.scope)) return 'another toolrun logged in' as const;
      await login();
      return 'logged in' as const;
    },
    LOGIN_LOCK,
  );
}
