import type { CliContext } from './cli-context.js';
import type { WatchedNotification } from '../mcp/mcp-client.js';
import type { ServerConnection } from '../mcp/server-connection.js';

const LIST_CHANGES: Array<[WatchedNotification, string]> = [
  ['notifications/tools/list_changed', 'tools'],
  ['notifications/resources/list_changed', 'resources'],
  ['notifications/prompts/list_changed', 'prompts'],
];

/**
 * What the servers just connected are told or asked once connected (SPEC §15): `--log-level` sent to
 * each that advertises logging (a refusal is a warning, the command goes on), and with `--verbose`
 * their list-changed notifications as one stderr line each.
 */
export async function followServerNotifications(cli: CliContext, connections: ServerConnection[]): Promise<void> {
  if (cli.globals.verbose) {
    for (const connection of connections) {
      for (const [method, what] of LIST_CHANGES) connection.client.onNotification(method, () => cli.terminal.verbose(`server '${connection.name}': ${what} list changed`));
    }
  }
  const level = cli.globals.logLevel;
  if (!level) return;
  await Promise.all(
    connections.map(async (connection) => {
      if (!connection.capabilities?.logging) {
        cli.terminal.verbose(`server '${connection.name}' does not advertise logging; --log-level not sent to it`);
        return;
      }
      await connection.client.setLogLevel(level, { signal: cli.signal, timeout: cli.globals.timeout }).catch((error: unknown) => {
        cli.terminal.warn(`server '${connection.name}' refused logging/setLevel ${level}: ${String((error as Error)?.message ?? error).replace(/^MCP error -?\d+: /, '')}`);
      });
    }),
  );
}
