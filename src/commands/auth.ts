import type { Command } from 'commander';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { parsePort } from '../cli-support/parse-number-option.js';

/** `toolrun auth login|status|logout`: OAuth for remote servers (SPEC §14). The flow loads only here. */
export function registerAuthCommands(program: Command, run: CommandRunner): void {
  const auth = program
    .command('auth')
    .description('log in to remote MCP servers behind OAuth, see what is stored, log out')
    .addHelpText(
      'after',
      `
Tokens live in $XDG_DATA_HOME/toolrun/auth/ (default ~/.local/share/toolrun/auth), one 0600 file per
server; they are never printed. Other commands use them and refresh them; without one they exit 4
naming \`toolrun auth login SERVER\`.

Examples:
  $ toolrun auth login linear
  $ toolrun auth login linear --no-browser          # over SSH: open the URL elsewhere, paste the redirect back
  $ toolrun auth status
  $ toolrun auth logout linear`,
    );
  auth
    .command('login')
    .description('log in to a remote server: a browser opens on its authorization page, tokens are stored')
    .argument('<server>', 'a remote server of the config')
    .option('--no-browser', 'print the URL on stderr instead; paste the redirected URL on stdin (SSH, containers, WSL)')
    .option('--callback-port <port>', 'the loopback redirect port (default: the one kept with the registration, else a free one)', parsePort)
    .option('--scope <scopes>', 'scopes to ask for, space-separated (default: what the server asks for)')
    .addHelpText(
      'after',
      `
The browser is $BROWSER when set (run as \`$BROWSER URL\`, split into words as a shell would:
BROWSER='firefox --new-window' works), else the system's opener.
The redirect is http://127.0.0.1:PORT/callback; a re-login reuses the port and the registration.

Examples:
  $ toolrun auth login linear
  $ toolrun auth login linear --scope 'read write'
  $ toolrun auth login linear --no-browser --callback-port 8765
  $ BROWSER=w3m toolrun auth login linear
Exit: 0 logged in · 2 usage (unknown server, not remote, a server that needs no login) · 3 config · 4 the server or authorization server refused`,
    )
    .action((server: string, options: { browser: boolean; callbackPort?: number; scope?: string }) =>
      run(async (cli) => {
        const { runAuthLogin } = await import('./support/auth-login.js');
        return runAuthLogin(cli, server, options);
      }),
    );
  auth
    .command('status')
    .description('what is stored per server: issuer, client id, scopes, expiry (never a token)')
    .argument('[server]', 'only this server')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun auth status
  $ toolrun auth status linear --json`,
    )
    .action((server: string | undefined) =>
      run(async (cli) => {
        const { runAuthStatus } = await import('./support/auth-status.js');
        return runAuthStatus(cli, server);
      }),
    );
  auth
    .command('logout')
    .description("revoke a server's tokens where its authorization server allows it, and forget them and the registration")
    .argument('<server>', 'the server name')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun auth logout linear`,
    )
    .action((server: string) =>
      run(async (cli) => {
        const { runAuthLogout } = await import('./support/auth-logout.js');
        return runAuthLogout(cli, server);
      }),
    );
}
