import type { Command } from 'commander';
import type { RawServerConfig, ToolrunConfig } from '../config/config-types.js';
import { ExitCode } from '../errors.js';
import type { CapabilityProbe } from '../mcp/connect/probe-capabilities.js';
import { formatTable } from '../output/format-tool-list.js';
import { maskArgs, maskSecrets } from '../secrets/mask-secrets.js';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { hostStateOf, isGatedRefusal } from '../hosts/refused-servers.js';
import { isGatedFailure, openTools } from './support/open-tools.js';

interface McpListOptions {
  check?: boolean;
}

export function registerMcpListCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('list')
    .description('the configured MCP servers: name, transport, command or URL; with --check, whether each connects')
    .option('--check', 'connect to each server (in parallel, with retry): status, tool, resource and prompt counts, protocol, connect time')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun --config home.json mcp list
  $ toolrun --config home.json mcp list --check          # exit 4 if a server does not connect, 1 if one cannot serve what it advertises
  $ toolrun --config home.json --json mcp list --check`,
    )
    .action((options: McpListOptions) =>
      run(async (cli) => {
        // Which server's tool a plain name runs is not what this command reports on: no shadowing warnings here.
        const opened = await openTools(cli, { onToolReplaced: () => {} });
        const servers = Object.values(opened.config.servers);
        // The auth state of each remote server, traced while the servers connect (SPEC §14).
        // A server its host gates is shown with its state, as `toolrun hosts` shows it, and is no failure (issue 47).
        const [failures, auth] = options.check
          ? await Promise.all([opened.connect(undefined, { gatedShown: true }), traceRemoteAuth(opened.config, cli.env, cli.signal)])
          : [[], new Map<string, AuthSummary>()];
        // Connected is not healthy: a capability it advertises but cannot serve is a problem, as in doctor.
        const probes = new Map<string, CapabilityProbe[]>();
        if (options.check) {
          const { probeCapabilities } = await import('../mcp/connect/probe-capabilities.js');
          const timeoutMs = cli.globals.timeout ?? opened.config.timeoutMs;
          await Promise.all(
            [...opened.registry.servers.values()].map(async (status) => {
              if (status.status === 'connected') probes.set(status.connection.name, await probeCapabilities(status.connection, timeoutMs));
            }),
          );
        }
        const rows = servers.map((server) => {
          const status = opened.registry.servers.get(server.name);
          const base = {
            name: server.name,
            transport: server.transport === 'stdio' ? 'stdio' : server.transport === 'auto' ? 'http (sse fallback)' : server.transport,
            target: describeTarget(server),
            // `--host`: a server toolrun will not start (its host gates it, or only the host can start it), with its state.
            ...(server.refused && { state: hostStateOf(server.refused.kind), reason: server.refused.reason, fix: server.refused.fix }),
          };
          if (!options.check) return base;
          const authState = auth.get(server.name);
          if (authState) Object.assign(base, { auth: authState });
          if (status?.status === 'connected') {
            const { connection } = status;
            const unserved = (probes.get(server.name) ?? []).filter((probe) => probe.error);
            // As doctor: a broken tool definition is a problem, though the other tools work.
            const errors = [...unserved.map((probe) => probe.error!), ...connection.brokenTools.map((tool) => `tool '${tool.name}' is broken: ${tool.problem}`)];
            const fixes = [...unserved.map((probe) => probe.fix!), ...(connection.brokenTools.length > 0 ? ['fix the broken tool definitions on the server'] : [])];
            const problem = errors.length > 0 ? { error: errors.join('; '), fix: fixes.join('; ') } : {};
            // As doctor's tools step: a count for each capability advertised and listed, nothing for one not advertised.
            const counts = Object.fromEntries((probes.get(server.name) ?? []).flatMap((probe) => (probe.count === undefined ? [] : [[probe.capability, probe.count]])));
            return {
              ...base,
              transport: connection.transportKind,
              status: errors.length > 0 ? 'problem' : 'ok',
              tools: connection.tools.length,
              ...counts,
              protocol_version: connection.protocolVersion,
              protocol_era: connection.era.era,
              connect_ms: connection.timings.totalMs,
              attempt: connection.attempt,
              server_info: connection.serverInfo,
              ...problem,
            };
          }
          const failure = status?.status === 'failed' ? status.failure : undefined;
          const notStarted = failure?.notStarted === true;
          return {
            ...base,
            status: notStarted ? 'not-started' : 'failed',
            error: failure?.reason ?? 'not connected',
            ...(failure ? { cause: failure.causeId, fix: failure.checks.join('; ') } : {}),
          };
        });
        if (cli.globals.json) await cli.terminal.resultJson({ config: opened.config.path, servers: rows });
        else if (rows.length === 0) await cli.terminal.result(`no MCP servers configured${opened.config.path ? ` in ${opened.config.path}` : ' (no config file found; pass --config)'}`);
        else {
          // AUTH only when a server is remote: stdio servers have no auth state.
          const withAuth = rows.some((row) => row.transport !== 'stdio');
          const headers = options.check
            ? ['NAME', 'TRANSPORT', 'STATUS', 'TOOLS', 'RESOURCES', 'PROMPTS', 'PROTOCOL', 'CONNECT', ...(withAuth ? ['AUTH'] : []), 'COMMAND / URL']
            : ['NAME', 'TRANSPORT', 'COMMAND / URL'];
          const style = cli.terminal.outStyle;
          // Without --check, a STATE column when a host's server is not started (the state `hosts` shows).
          const withState = !options.check && servers.some((server) => server.refused);
          const stateCell = (server: RawServerConfig) =>
            !server.refused ? '-' : isGatedRefusal(server.refused.kind) ? style.yellow(`○ ${hostStateOf(server.refused.kind)}`) : style.red(`✖ ${hostStateOf(server.refused.kind)}`);
          if (withState) headers.splice(2, 0, 'STATE');
          const table = rows.map((row, index) => {
            const refused = servers[index]!.refused;
            if (!options.check) {
              const target = refused ? [row.target, `(not started: ${refused.reason}; ${refused.fix})`].filter(Boolean).join('  ') : row.target;
              return withState ? [row.name, row.transport, stateCell(servers[index]!), target] : [row.name, row.transport, target];
            }
            const checked = row as typeof row & { status: string; tools?: number; resources?: number; prompts?: number; protocol_version?: string; connect_ms?: number; error?: string };
            // '-': not advertised (or not connected); '✖': advertised but its listing failed (the error says why).
            const count = (capability: 'resources' | 'prompts') =>
              checked[capability] !== undefined ? String(checked[capability]) : probes.get(row.name)?.some((probe) => probe.capability === capability) ? '✖' : '-';
            const connected = checked.status !== 'failed' && checked.status !== 'not-started';
            const status =
              checked.status === 'ok'
                ? style.green('✔ ok')
                : checked.status === 'problem'
                  ? style.red('✖ problem')
                  : checked.status === 'not-started'
                    ? refused && isGatedRefusal(refused.kind)
                      ? style.yellow(`○ ${hostStateOf(refused.kind)}`)
                      : style.red('✖ not started')
                    : style.red('✖ failed');
            return [
              row.name,
              row.transport,
              status,
              connected ? String(checked.tools) : '-',
              count('resources'),
              count('prompts'),
              (connected && checked.protocol_version) || '-',
              connected ? `${Math.round(checked.connect_ms!)} ms` : '-',
              ...(withAuth ? [describeAuth(auth.get(row.name))] : []),
              checked.error ? [row.target, `(${checked.error})`].filter(Boolean).join('  ') : row.target,
            ];
          });
          await cli.terminal.result(formatTable(headers, table, undefined));
          for (const row of rows as Array<{ name: string; status?: string; fix?: string }>) if (row.status === 'problem' && row.fix) cli.terminal.note(`✖ ${row.name}: ${row.fix}`);
        }
        if (failures.some((failure) => !isGatedFailure(failure))) return ExitCode.UNREACHABLE;
        return rows.some((row) => (row as { status?: string }).status === 'problem') ? ExitCode.FAILURE : ExitCode.OK;
      }),
    );
}

type AuthSummary = ReturnType<typeof import('../auth/trace-auth.js').summarizeAuth> | { state: 'static' };

/** Each remote server's auth state (stdio servers have none): traced without credentials, in parallel. */
async function traceRemoteAuth(config: ToolrunConfig, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<Map<string, AuthSummary>> {
  const remote = Object.values(config.servers).filter((server) => server.transport !== 'stdio');
  const states = new Map<string, AuthSummary>();
  if (remote.length === 0) return states;
  const [{ traceAuth, summarizeAuth }, { sendsOwnAuthorization }, { resolveServer }, { mapWithLimit, parallelStartLimit }] = await Promise.all([
    import('../auth/trace-auth.js'),
    import('../auth/own-credentials.js'),
    import('../config/resolve-server.js'),
    import('../process/parallel-starts.js'),
  ]);
  // Bounded, as the connections are (SPEC §8): a config with hundreds of remote servers traces a few at a time.
  await mapWithLimit(remote, parallelStartLimit(), async (raw) => {
    let spec;
    try {
      spec = resolveServer(config, raw, env);
    } catch {
      return; // The connection reports the config error.
    }
    if (spec.transport === 'stdio') return;
    if (sendsOwnAuthorization(spec.url, spec.headers)) return states.set(raw.name, { state: 'static' });
    states.set(raw.name, summarizeAuth(await traceAuth(spec.url, { timeoutMs: spec.connectTimeoutMs, signal, grant: spec.oauth?.grant })));
  });
  return states;
}

/** The AUTH column: '-' for stdio, none, required, static (the entry's own header), broken: RULE. */
function describeAuth(state: AuthSummary | undefined): string {
  if (!state) return '-';
  if (state.state === 'broken') return `broken: ${state.rule}`;
  return state.state === 'unknown' ? '?' : state.state;
}

function describeTarget(server: RawServerConfig): string {
  if (server.transport === 'stdio') return [server.command, ...maskArgs(server.args)].map((part) => (/\s/.test(part) ? JSON.stringify(part) : part)).join(' ');
  return maskSecrets(server.url);
}
