import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { loadCliConfig } from '../cli-support/load-cli-config.js';
import { assertServerExists } from '../cli-support/assert-server-exists.js';

export function registerShellCommand(program: Command, run: CommandRunner): void {
  program
    .command('shell')
    .description('an interactive session on held MCP servers: call tools, list, read, time, doctor; Tab completes tools and arguments')
    .argument('[servers...]', 'servers to hold (default: every configured server)')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun shell everything
  toolrun> echo message=hi                 # a call (SERVER:TOOL when two servers have TOOL)
  toolrun> get-sum a=2 b=3
  toolrun> ec<Tab>                         # completes tools, then argument keys and enum values
  toolrun> tools                           # also: resources, prompts, read URI, get PROMPT k=v
  toolrun> time get-sum a=1 b=2 -n 100
  toolrun> .stderr everything              # the server's recent stderr
  toolrun> .json on                        # results as JSON
  toolrun> restart everything              # after a server went down
  $ printf 'echo message=a\\necho message=b\\n' | toolrun shell everything   # piped: one result per line

The shell runs on a session holder (toolrun session start): the running one, or one started for it
and ended with it. Ctrl-C cancels the running call, Ctrl-D (or exit) leaves. History:
$XDG_STATE_HOME/toolrun/history (default ~/.local/state/toolrun/history), secrets masked.`,
    )
    .action((servers: string[]) =>
      run(async (cli) => {
        const config = await loadCliConfig(cli);
        if (Object.keys(config.servers).length === 0 || (!config.path && !cli.globals.host))
          throw new UsageError(`no MCP servers are configured${config.path ? ` in ${config.path}` : ' (no config file found; pass --config)'}: the shell has nothing to talk to`);
        for (const name of servers) assertServerExists(config, name);
        const { runShell } = await import('../shell/run-shell.js');
        return runShell(cli, config, servers);
      }),
    );
}
