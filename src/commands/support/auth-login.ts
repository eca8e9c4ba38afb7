import { createInterface } from 'node:readline';
import { loginToServer } from '../../auth/login-flow.js';
import { isScopeSyntax } from '../../auth/scope-syntax.js';
import { TokenStore } from '../../auth/token-store.js';
import type { CliContext } from '../../cli-support/cli-context.js';
import { browserAbort } from '../../cli-support/inline-login.js';
import { openBrowser } from '../../cli-support/open-browser.js';
import { resolveServer, type RemoteServerSpec } from '../../config/resolve-server.js';
import { ExitCode, ToolrunError, UnknownServerError, UsageError } from '../../errors.js';
import { maskSecrets } from '../../secrets/mask-secrets.js';
import { quoteShellWord } from '../../text/quote-shell-word.js';
import { describeRecord, recordSummary } from './auth-status.js';
import { loadCliConfig } from '../../cli-support/load-cli-config.js';

export interface AuthLoginOptions {
  /** false with --no-browser: the URL on stderr, the redirect pasted on stdin. */
  browser: boolean;
  callbackPort?: number;
  scope?: string;
}

/** `toolrun auth login SERVER`: a login on request (other commands log in inline only when someone can answer the browser, SPEC §14). */
export async function runAuthLogin(cli: CliContext, name: string, options: AuthLoginOptions): Promise<number> {
  if (options.scope !== undefined && !isScopeSyntax(options.scope))
    throw new UsageError(`--scope ${JSON.stringify(options.scope)} is not a list of OAuth scopes (RFC 6749: printable ASCII tokens but " and \\, one space apart)`);
  const spec = await remoteServer(cli, name);
  const store = new TokenStore(cli.env);
  const login = browserAbort(cli.signal);
  const record = await reachable(spec.url, () =>
    loginToServer({
      server: spec,
      store,
      callbackPort: options.callbackPort,
      scope: options.scope,
      signal: login.signal,
      openUrl: async (url) => {
        if (!options.browser) {
          cli.terminal.error(`Open this URL in a browser, then come back (or paste the URL it redirects to here):\n\n  ${url.href}\n`);
          return;
        }
        cli.terminal.info(`opening the browser on ${url.origin}${url.pathname} …`);
        await openBrowser(url.href, cli.env, (why) => login.abort(new ToolrunError('unreachable', `$BROWSER (${cli.env.BROWSER!.trim()}) ${why} before the login ended; fix it, or use --no-browser`)));
      },
      pastedUrl: options.browser ? undefined : firstPastedLine(cli.signal),
    }),
  );
  if (cli.globals.json) await cli.terminal.resultJson({ success: true, ...recordSummary(record) });
  else await cli.terminal.result(`logged in to ${name} (${describeRecord(record)})`);
  return ExitCode.OK;
}

/**
 * A server or authorization server that does not answer is the network's failure, exit 4 with
 * what failed (fetch's own message is only "fetch failed": the reason is in its cause).
 */
async function reachable<T>(serverUrl: string, login: () => Promise<T>): Promise<T> {
  try {
    return await login();
  } catch (error) {
    if (!(error instanceof TypeError) || error.message !== 'fetch failed') throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? 'no answer';
    throw new ToolrunError(
      'unreachable',
      `cannot log in to ${maskSecrets(serverUrl)}: a request of the login got no answer (${why}); check that the server and its authorization server are up and the URL is right`,
    );
  }
}

async function remoteServer(cli: CliContext, name: string): Promise<RemoteServerSpec> {
  const config = await loadCliConfig(cli);
  const raw = config.servers[name];
  if (!raw) throw new UnknownServerError(name, `unknown MCP server '${name}'; the config has ${Object.keys(config.servers).map(quoteShellWord).join(', ') || 'no servers'}`);
  const spec = resolveServer(config, raw, cli.env);
  if (spec.transport === 'stdio') throw new UsageError(`'${name}' is a stdio server: OAuth is for remote servers (a "url" entry)`);
  return spec;
}

/** The first line that looks like a URL on stdin (`--no-browser`): a person pastes it and presses Enter. */
function firstPastedLine(signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin, terminal: false });
    const done = (line: string) => {
      lines.close();
      // stdin is left alone once read: the login may end by the callback instead.
      process.stdin.unref?.();
      resolve(line);
    };
    lines.on('line', (line) => {
      if (/^\s*https?:\/\//.test(line)) done(line.trim());
    });
    signal.addEventListener('abort', () => lines.close(), { once: true });
  });
}
