import type { Command } from 'commander';
import { ExitCode, ToolrunError, UsageError } from '../errors.js';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import type { ResourceContents } from '../mcp/watch-resource.js';
import { formatBytes } from '../output/format-result.js';
import { connectServersFor, describeFailures } from './support/connected-servers.js';
import { mcpRequestError } from '../cli-support/mcp-request-error.js';
import { toolrunCommand } from '../text/quote-shell-word.js';

/** A remote server has no process to watch: a ping this often tells that it went away. */
const REMOTE_LIVENESS_MS = 5000;

export function registerResourcesWatchCommand(resources: Command, run: CommandRunner): void {
  resources
    .command('watch')
    .description('follow a resource: print it, then again each time the server says it changed (Ctrl-C ends)')
    .argument('<uri>', 'the resource URI')
    .option('--server <name>', 'the MCP server of the resource (needed when several are configured)')
    .addHelpText(
      'after',
      `
Subscribes (resources/subscribe; a 2026-07-28 server: a subscriptions/listen stream for URI; the
server must advertise resources.subscribe), prints the contents, and re-reads them on each
notifications/resources/updated for URI. Ctrl-C unsubscribes (cancels the stream) and exits 130; a server that goes away ends it with exit 4. With --json, one JSON document per
read, one per line (NDJSON): {"server","uri","update","contents"}.

Examples:
  $ toolrun resources watch note://counter --server notes
  $ toolrun --json resources watch note://counter --server notes | jq -c .contents`,
    )
    .action((uri: string, options: { server?: string }) =>
      run(async (cli) => {
        // The holder carries log messages only, not resource updates: this command connects itself.
        const { connected, failures } = await connectServersFor(cli, options.server ? [options.server] : undefined, 'resources', { useSession: false });
        const connection = pickConnection(connected, uri, options.server);
        if (!connection) {
          if (failures.length > 0) throw new ToolrunError('unreachable', `cannot watch '${uri}': ${describeFailures(failures)}`);
          throw new UsageError('no MCP server connected; check them with: toolrun mcp list --check');
        }
        if (!connection.capabilities?.resources?.subscribe)
          throw new UsageError(
            `MCP server '${connection.name}' does not offer resource subscriptions (no resources.subscribe in its capabilities); read it once with: ${toolrunCommand('resources', 'read', uri, '--server', connection.name)}`,
          );
        const { watchResource } = await import('../mcp/watch-resource.js');
        const end = await watchResource(connection.client, uri, {
          signal: cli.signal,
          timeout: cli.globals.timeout,
          listChanges: cli.globals.verbose,
          gone: serverGone(cli, connection),
          onContents: (contents, update) => showContents(cli, connection, uri, contents, update),
        }).catch((error: unknown) => {
          throw mcpRequestError(connection, `${connection.era.era === 'modern' ? 'subscriptions/listen' : 'resources/subscribe'} or resources/read`, error, uri);
        });
        if (end.kind === 'not-honored')
          throw new UsageError(
            `MCP server '${connection.name}' did not agree to send updates for '${uri}' (its subscriptions/listen acknowledgment left it out); read it once with: ${toolrunCommand('resources', 'read', uri, '--server', connection.name)}`,
          );
        if (end.kind === 'gone') {
          const last = connection.stdio?.stderr.lastLines(1)[0];
          throw new ToolrunError('unreachable', `MCP server '${connection.name}' ${end.reason} while watching '${uri}'${last ? `; its last stderr line: ${last}` : ''}`);
        }
        return ExitCode.INTERRUPTED;
      }),
    );
}

/** The named server, else the only one connected: a watch follows one server. */
function pickConnection(connected: ServerConnection[], uri: string, named: string | undefined): ServerConnection | undefined {
  if (named || connected.length <= 1) return connected[0];
  throw new UsageError(`several MCP servers are configured; name the one of '${uri}' with --server (${connected.map((connection) => connection.name).join(', ')})`);
}

async function showContents(cli: CliContext, connection: ServerConnection, uri: string, contents: ResourceContents[], update: number): Promise<void> {
  if (cli.globals.json) return cli.terminal.resultJson({ server: connection.name, uri, update, contents }, { verbatimKeys: ['contents'] });
  cli.terminal.info(update === 0 ? `● ${uri} · mcp:${connection.name} · watching (Ctrl-C ends)` : `↻ ${uri} updated (${update})`);
  for (const item of contents) {
    if (typeof item.blob === 'string')
      cli.terminal.info(
        `(binary: ${item.mimeType ?? 'no mime type'}, ${formatBytes(Buffer.from(item.blob, 'base64').length)}; save one read with: ${toolrunCommand('resources', 'read', uri, '-o', 'FILE')})`,
      );
    else await cli.terminal.result(item.text ?? '', { verbatim: true });
  }
}

/** Why the server can no longer answer: its process exited (stdio), or a ping failed (remote). */
function serverGone(cli: CliContext, connection: ServerConnection): Promise<string> {
  const process = connection.stdio?.process;
  if (process) {
    return process.exited.then((info) => `exited (${info.code !== null ? `code ${info.code}` : info.signal})`);
  }
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      connection.client.ping({ signal: cli.signal, timeout: REMOTE_LIVENESS_MS }).catch((error: unknown) => {
        if (cli.signal.aborted) return;
        clearInterval(timer);
        resolve(`stopped answering (${(error as Error)?.message ?? error})`);
      });
    }, REMOTE_LIVENESS_MS);
    timer.unref();
    cli.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  });
}
