import { isatty } from 'node:tty';
import { AuthRequiredError } from '../auth/auth-errors.js';
import type { InlineLogin } from '../auth/inline-login.js';
import type { CliContext } from './cli-context.js';
import { openBrowser } from './open-browser.js';

/**
 * The login a command other than `auth login` may run when a remote server wants a token it does
 * not have (SPEC §14): only when someone can answer the browser — `$BROWSER` names a program (CI
 * and test harnesses consent that way), or stdin and stderr are a terminal. Otherwise undefined:
 * the command never waits, it exits 4 naming `toolrun auth login SERVER`.
 */
// isatty on the descriptors, not process.stdin/stderr.isTTY: touching those builds the streams, on every command's startup.
export function inlineLoginFor(cli: Pick<CliContext, 'env' | 'signal' | 'terminal'>, tty = isatty(0) && isatty(2)): InlineLogin | undefined {
  if (!cli.env.BROWSER?.trim() && !tty) return undefined;
  return async (server, scope, refused) => {
    // Loaded on this path only: most commands never log in.
    const [{ loginToServer }, { TokenStore }, { loginOnce }] = await Promise.all([import('../auth/login-flow.js'), import('../auth/token-store.js'), import('../auth/login-once.js')]);
    const browser = cli.env.BROWSER?.trim();
    const login = browserAbort(cli.signal);
    const store = new TokenStore(cli.env);
    // Parallel toolruns with an empty store: one logs in, the others take its tokens.
    const outcome = await loginOnce(store, server, { scope, refused }, () =>
      loginToServer({
        server,
        store,
        scope,
        signal: login.signal,
        openUrl: async (url) => {
          // On stderr too: the browser may not open (a remote shell), and the person can copy it.
          cli.terminal.error(`'${server.name}' needs an OAuth login${scope ? ` with scopes '${scope}'` : ''}: opening the browser on\n\n  ${url.href}\n`);
          const opened = openBrowser(url.href, cli.env, (why) => login.abort(new AuthRequiredError(server.name, `$BROWSER (${browser}) ${why} before the OAuth login of '${server.name}' ended`)));
          // $BROWSER that cannot start fails the login; no platform opener on a terminal (a bare server, a
          // container) does not: the person there opens the URL shown, and the login waits for it.
          if (browser)
            await opened.catch((error: Error) => {
              throw new AuthRequiredError(server.name, `$BROWSER (${browser}) could not be started for the OAuth login of '${server.name}'`, { cause: error });
            });
          else await opened.catch((error: Error) => cli.terminal.error(`${error.message}; open the URL above yourself`));
        },
      }).then(() => {}),
    );
    cli.terminal.info(outcome === 'logged in' ? `logged in to ${server.name}; continuing` : `another toolrun logged in to ${server.name} meanwhile; continuing with its tokens`);
  };
}

/** An AbortController that also follows `parent` (Ctrl-C): a failed $BROWSER ends the login without ending the command. */
export function browserAbort(parent: AbortSignal): AbortController {
  const controller = new AbortController();
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', () => controller.abort(parent.reason), { once: true });
  return controller;
}
