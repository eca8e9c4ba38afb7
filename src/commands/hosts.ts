import type { Command } from 'commander';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { UsageError } from '../errors.js';
import { registerHostsImportCommand } from './hosts-import.js';
import { registerHostsLintCommand } from './hosts-lint.js';

export function registerHostsCommand(program: Command, run: CommandRunner): void {
  const hosts = program
    .command('hosts')
    .description('list the MCP host configs found for you and this project (Claude Desktop, Claude Code, Cursor, VS Code, …): file, scope, servers, problems')
    .addHelpText(
      'after',
      `
Looks in your home (HOME, XDG_CONFIG_HOME, APPDATA) and in the project: the current folder up to the
repository root (the nearest folder with .git; outside a repository, the current folder only). Env values
and headers are never shown, only their names; secret-looking arguments are masked.

Examples:
  $ toolrun hosts
  $ toolrun hosts --json
  $ toolrun hosts import cursor                      # copy Cursor's servers into ./toolrun.config.json
  $ toolrun --host cursor list                       # a host's servers instead of a toolrun config
  $ toolrun --host claude-code:project exec github:search_repositories query=mcp
  $ toolrun --host claude-desktop mcp doctor zwave`,
    )
    .action(() =>
      run(async (cli) => {
        if (cli.globals.host !== undefined || cli.globals.config !== undefined || cli.globals.terminalEnv)
          throw new UsageError('hosts lists every host: it takes none of --host, --config and --terminal-env');
        const { showHosts } = await import('./support/show-hosts.js');
        return showHosts(cli.terminal, cli.env, cli.cwd);
      }),
    );
  // A subcommand beside the listing action: commander runs the action for `toolrun hosts` alone.
  registerHostsImportCommand(hosts, run);
  registerHostsLintCommand(hosts, run);
}
