import type { Command } from 'commander';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { hasDoubleDash } from '../cli-support/server-on-command-line.js';

/** `toolrun mcp apps [SERVER…]` (SPEC §23): each tool's MCP App UI, and the Apps extension's rules. */
export function registerMcpAppsCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('apps')
    .description(
      "list each tool's MCP App UI (ui:// resource, visibility) and check it: the resource resolves, its MIME type, CSP and domain on the resource in list and read, host-specific keys, what the HTML loads",
    )
    .argument('[server...]', 'configured servers (default: every configured one), a URL, or -- COMMAND [ARGS...]')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun mcp apps -- npx -y @modelcontextprotocol/server-map --stdio
  $ toolrun --config home.json mcp apps dashboards
  $ toolrun --json mcp apps https://example.com/mcp

toolrun claims the Apps extension (io.modelcontextprotocol/ui) at the handshake for this command only.
Rules, severities and sources: docs/apps.md. The HTML is read statically (no browser).
Exit codes: 0 no error-level finding · 1 an error-level finding · 2 bad usage · 3 config · 4 a server unreachable`,
    )
    .action((words: string[], _options: unknown, command: Command) =>
      run(async (cli) => {
        const { runApps } = await import('./support/apps-run.js');
        return runApps(cli, words, hasDoubleDash(command));
      }),
    );
}
