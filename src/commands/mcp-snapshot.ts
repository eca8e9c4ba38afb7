import type { Command } from 'commander';
import { ExitCode, ToolrunError } from '../errors.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import type { ApiSnapshot } from '../snapshot/snapshot-types.js';
import { describeFailures } from './support/connected-servers.js';
import { mcpRequestError } from '../cli-support/mcp-request-error.js';
import { openTools } from './support/open-tools.js';
import { loadCliConfig } from '../cli-support/load-cli-config.js';
import { hasDoubleDash, serverOnCommandLine } from '../cli-support/server-on-command-line.js';
import type { ToolrunConfig } from '../config/config-types.js';

/** `toolrun mcp snapshot SERVER` (SPEC §16): the server's API as one stable JSON document. */
export function registerMcpSnapshotCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('snapshot')
    .description('print a server\'s API (tools, resources, templates, prompts, with their schemas) as stable JSON, to commit and diff later with "mcp diff"')
    .argument('<server...>', 'a configured MCP server (stdio or remote, either protocol era), a URL, or -- COMMAND [ARGS...]')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun --config home.json mcp snapshot zwave > api.json     # commit api.json
  $ toolrun --config home.json mcp diff api.json zwave           # in CI: exit 1 on a breaking change
  $ toolrun mcp snapshot -- node server.js > api.json

Lists sorted, keys sorted, no _meta, cursors or server version: the same API prints the same bytes.
Exit codes: 0 ok · 1 a listing failed · 2 unknown server · 3 config problem · 4 server unreachable`,
    )
    .action((words: string[], _options: unknown, command: Command) =>
      run(async (cli) => {
        const { formatSnapshot } = await import('../snapshot/build-snapshot.js');
        const config = await loadCliConfig(cli);
        const server = serverOnCommandLine(config, words, hasDoubleDash(command), cli.cwd)!;
        const [snapshot] = await snapshotServers(cli, [server], config);
        await cli.terminal.result(formatSnapshot(snapshot!), { verbatim: true, json: true });
        return ExitCode.OK;
      }),
    );
}

/**
 * Connects these configured servers (an unknown name is exit 2 naming the configured ones; one that
 * does not connect is exit 4 after its diagnosis) and takes the API of each, in the order given.
 */
export async function snapshotServers(cli: CliContext, names: string[], config?: ToolrunConfig): Promise<ApiSnapshot[]> {
  const { registry, connect } = await openTools(cli, { config, useSession: true, onToolReplaced: () => {} });
  // Tools not registered: nothing here calls them, and two servers' same-named tools are not this command's business.
  const failures = await connect(names, { registerTools: false });
  if (failures.length > 0) throw new ToolrunError('unreachable', `cannot take the API: ${describeFailures(failures).replace(/; (its|their) items are missing$/, '')}`);
  const { takeSnapshot, ListFailedError } = await import('../snapshot/take-snapshot.js');
  return Promise.all(
    names.map(async (name) => {
      const status = registry.servers.get(name);
      const connection = (status?.status === 'connected' ? status.connection : undefined) as ServerConnection;
      return takeSnapshot(connection, { signal: cli.signal, timeout: cli.globals.timeout }).catch((error: unknown) => {
        throw error instanceof ListFailedError ? mcpRequestError(connection, error.method, error.cause) : error;
      });
    }),
  );
}
