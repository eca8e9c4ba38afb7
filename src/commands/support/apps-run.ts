import type { CliContext } from '../../cli-support/cli-context.js';
import type { ToolrunConfig } from '../../config/config-types.js';
import { ExitCode, UsageError } from '../../errors.js';
import { loadCliConfig } from '../../cli-support/load-cli-config.js';
import { assertServerExists } from '../../cli-support/assert-server-exists.js';
import { serverOnCommandLine } from '../../cli-support/server-on-command-line.js';
import type { ServerConnection } from '../../mcp/server-connection.js';
import { APPS_CLIENT_EXTENSIONS, type AppsEvidence } from '../../extensions/apps/apps-wire.js';
import { openTools } from './open-tools.js';

/**
 * Connects the servers with the Apps extension claimed (SPEC §23: some servers list their App tools
 * only to a client that claims it; toolrun claims it only here) and gathers each one's Apps
 * evidence. A server that does not connect, or whose tools cannot be listed, is said on stderr and
 * makes `unreachable` true (exit 4 unless a finding fails the run).
 */
export async function gatherApps(cli: CliContext, source: { servers: string[]; dashed: boolean; config?: ToolrunConfig }): Promise<{ servers: AppsEvidence[]; unreachable: boolean }> {
  const config = source.config ?? (await loadCliConfig(cli));
  let names: string[];
  if (source.dashed || (source.servers.length === 1 && /^https?:\/\//i.test(source.servers[0]!))) names = [serverOnCommandLine(config, source.servers, source.dashed, cli.cwd)!];
  else if (source.servers.length > 0) {
    for (const name of source.servers) assertServerExists(config, name);
    names = [...new Set(source.servers)];
  } else names = Object.keys(config.servers);
  if (names.length === 0) throw new UsageError(`no MCP servers to check${config.path ? ` in ${config.path}` : ''}: name one, or give -- COMMAND`);
  const { registry, connect } = await openTools(cli, { config, clientExtensions: APPS_CLIENT_EXTENSIONS, onToolReplaced: () => {} });
  const failures = await connect(names, { registerTools: false });
  const { collectApps } = await import('../../extensions/apps/collect-apps.js');
  const { mcpRequestError } = await import('../../cli-support/mcp-request-error.js');
  const servers: AppsEvidence[] = [];
  const notChecked = failures.map((failure) => `${failure.server} could not be connected`);
  for (const name of names) {
    const status = registry.servers.get(name);
    if (status?.status !== 'connected') continue;
    const connection = status.connection as ServerConnection;
    try {
      servers.push(await collectApps(name, connection.client, { signal: cli.signal, timeout: cli.globals.timeout, onNote: (note) => cli.terminal.warn(note) }));
    } catch (error) {
      if (cli.signal.aborted) throw error;
      cli.terminal.warn(`✖ ${mcpRequestError(connection, 'tools/list', error).message}`);
      notChecked.push(`${name}'s tools could not be listed`);
    }
  }
  if (notChecked.length > 0) cli.terminal.warn(`not checked: ${notChecked.join('; ')} (exit 4 unless a finding fails the run)`);
  return { servers, unreachable: notChecked.length > 0 };
}

/** `toolrun mcp apps`: the report, on stdout; exit 1 on an error-level finding, else 4 when a server was not checked. */
export async function runApps(cli: CliContext, words: string[], dashed: boolean): Promise<number> {
  const { servers, unreachable } = await gatherApps(cli, { servers: words, dashed });
  const { buildAppsReport } = await import('../../extensions/apps/apps-report.js');
  const report = buildAppsReport(servers);
  if (cli.globals.json) await cli.terminal.resultJson(report);
  else {
    const { formatAppsReport } = await import('../../output/format-apps-report.js');
    await cli.terminal.result(formatAppsReport(report, cli.terminal.outStyle));
  }
  if (report.errors > 0) return ExitCode.FAILURE;
  return unreachable ? ExitCode.UNREACHABLE : ExitCode.OK;
}
