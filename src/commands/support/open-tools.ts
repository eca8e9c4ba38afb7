import type { ToolrunConfig } from '../../config/config-types.js';
import type { ToolIndex } from '../../cache/tool-index.js';
import { loadCliConfig } from '../../cli-support/load-cli-config.js';
import { assertServerExists } from '../../cli-support/assert-server-exists.js';
import { UsageError } from '../../errors.js';
import { ToolExecutor } from '../../executor/tool-executor.js';
import { createRegistry } from '../../assembly/create-registry.js';
import type { ConnectFailure } from '../../mcp/connect/connect-failure.js';
import type { Registry } from '../../assembly/server-status.js';
import type { ServerConnection } from '../../mcp/server-connection.js';
import type { CliContext } from '../../cli-support/cli-context.js';
import type { AskBack } from '../../mcp/ask-back.js';
import { isAtLeast } from '../../cli-support/parse-log-level.js';
import { followServerNotifications } from '../../cli-support/server-notifications.js';
import { maskThenCut } from '../../secrets/mask-secrets.js';
import { toolrunCommand } from '../../text/quote-shell-word.js';
import { hostStateOf, isGatedRefusal } from '../../hosts/refused-servers.js';

export interface OpenTools {
  config: ToolrunConfig;
  registry: Registry;
  executor: ToolExecutor;
  /**
   * Connects these MCP servers (all configured ones by default) and registers their tools.
   * Failures are reported on stderr with SPEC §4's box and returned; nothing is thrown for them.
   * `gatedShown`: a server its host gates (isGatedFailure) is shown with its state, not as a failure.
   */
  connect(names?: string[], options?: { registerTools?: boolean; gatedShown?: boolean }): Promise<ConnectFailure[]>;
  /**
   * The servers the tool index says to start for a plain tool name (those that offer it and those it
   * does not know), or undefined to start them all: no fewer, or `--no-cache` (SPEC §12).
   */
  likelyServersFor(toolName: string): Promise<string[] | undefined>;
}

/** More servers than this in one command is a mistake or a generated config, not a session. */
export const MAX_SERVERS_AT_ONCE = 256;

/** Loads the config and builds the registry (local tools) and executor; cleanup runs at exit. */
export async function openTools(
  cli: CliContext,
  options: {
    likelyTool?: string;
    config?: ToolrunConfig;
    useSession?: boolean;
    /** How servers that ask back are answered (default: the command's flags, askBackFor). */
    askBack?: AskBack;
    /** Where "Tool 'x' from … replaces the one from …" goes (default: a warning): a command it does not concern drops it, validate reports it. */
    onToolReplaced?: (message: string) => void;
    /** Extensions to claim at the handshake (mcp apps claims io.modelcontextprotocol/ui); none otherwise. */
    clientExtensions?: Record<string, Record<string, unknown>>;
  } = {},
): Promise<OpenTools> {
  // math_eval's worker needs ~130 ms to load mathjs; started now, that overlaps loading the engine
  // and the config. Speculative: if the config replaces math_eval, the idle thread just ends at exit.
  const hosts = options.likelyTool === 'math_eval' ? await startMathWorkerEarly(cli) : undefined;
  const config = options.config ?? (await loadCliConfig(cli));
  const registry = await createRegistry(config, { logger: options.onToolReplaced ? { warn: options.onToolReplaced } : cli.terminal, hosts, servers: 'none' });
  cli.onExit(() => registry.close());
  const executor = new ToolExecutor(registry, {
    timeoutMs: cli.globals.timeout ?? config.timeoutMs,
    slowToolMs: config.slowToolMs,
    paramMappings: config.paramMappings,
    logger: cli.terminal,
  });
  // Polluting stdout lines are warned once per server and pattern; the repeats are counted and summed up at exit.
  const repeatedPollution = new Map<string, number>();
  cli.onExit(async () => {
    const repeats = new Map<string, number>();
    for (const [key, count] of repeatedPollution) if (count > 0) repeats.set(key.split('\0')[0]!, (repeats.get(key.split('\0')[0]!) ?? 0) + count);
    if (cli.globals.verbose) {
      const { takeSchemaWarnings } = await import('../../schema/schema-warnings.js');
      for (const warning of takeSchemaWarnings()) cli.terminal.verbose(`schema warning: ${warning}`);
    }
    for (const [server, count] of repeats)
      cli.terminal.warn(
        `[${server}] ${count} more non-JSON-RPC stdout line${count === 1 ? '' : 's'} like those above were skipped (${toolrunCommand('mcp', 'check-stdout', server)} lists every line)`,
      );
  });
  const failuresAmong = (names: string[]) => [...registry.servers.values()].flatMap((status) => (status.status === 'failed' && names.includes(status.failure.server) ? [status.failure] : []));
  const connect = async (names = Object.keys(config.servers), connectOptions: { registerTools?: boolean; gatedShown?: boolean } = {}) => {
    for (const name of names) assertServerExists(config, name);
    // A server already asked for (connected or failed) is not started again.
    const pending = names.filter((name) => !registry.servers.has(name));
    if (pending.length === 0) return failuresAmong(names);
    // Each server is a process of tens of MB kept alive for the command: thousands would exhaust the machine.
    if (pending.length > MAX_SERVERS_AT_ONCE) {
      throw new UsageError(`this command would start ${pending.length} MCP servers at once; toolrun starts at most ${MAX_SERVERS_AT_ONCE}. Name the ones you need: --server NAME (or SERVER:TOOL)`);
    }
    // Servers a live session holder keeps for this config are asked there, not started (SPEC §12).
    // --log-level starts the servers here: a holder's server is shared, its level is not this command's to change.
    // Sampling or roots the holder's servers were not offered: started here too (heldConnections, askBackMismatch).
    const ready = options.useSession && !cli.globals.logLevel && !options.clientExtensions ? await heldConnections(cli, config, pending) : [];
    // The index: the era each server spoke last time decides which MCP client loads while it starts (open-client.ts).
    const [{ connectServers }, { formatConnectFailure }, { pollutionPattern }, { formatServerLog }, { askBackFor }, eraIndex] = await Promise.all([
      import('../../assembly/connect-servers.js'),
      import('../../output/format-connect-failure.js'),
      import('../../scan/pollution-pattern.js'),
      import('../../output/format-server-log.js'),
      import('../../cli-support/ask-back-for.js'),
      cli.globals.cache ? toolIndex() : undefined,
    ]);
    const { connections, failures } = await connectServers(registry, config, pending, {
      logger: cli.terminal,
      signal: cli.signal,
      env: cli.env,
      registerTools: connectOptions.registerTools,
      ready,
      hooks: {
        expectedEra: eraIndex && ((server) => eraIndex.knownEra(server)),
        askBack: options.askBack ?? askBackFor(cli, config),
        clientExtensions: options.clientExtensions,
        onPollution: (server, line, reason) => {
          const text = line.bytes.toString('utf8');
          const key = `${server}\0${pollutionPattern(text)}`;
          const seen = repeatedPollution.get(key);
          if (seen !== undefined) return void repeatedPollution.set(key, seen + 1);
          repeatedPollution.set(key, 0);
          cli.terminal.warn(`[${server}] stdout line ${line.lineNumber} is not JSON-RPC (${reason}), skipped: ${JSON.stringify(maskThenCut(text, 200))}`);
        },
        onStderr: cli.globals.verbose ? (server, chunk) => cli.terminal.serverStderr(server, chunk) : undefined,
        // A server's log messages go to stderr with their level (SPEC §10); warnings and worse stand out.
        onServerLog: (server, params) => {
          // --log-level is a floor toolrun keeps too: a server may ignore logging/setLevel.
          if (cli.globals.logLevel && !isAtLeast(params.level, cli.globals.logLevel)) return;
          const { line, isWarning } = formatServerLog(server, params);
          if (isWarning) cli.terminal.warn(line);
          else cli.terminal.info(line);
        },
      },
    });
    for (const failure of failures)
      cli.terminal.note(formatConnectFailure(failure, cli.terminal.errStyle, connectOptions.gatedShown && isGatedFailure(failure) ? hostStateOf(failure.causeId) : undefined));
    await followServerNotifications(cli, connections);
    // Not what a connection claiming an extension lists (mcp apps sees App tools other commands do not): the index is for those.
    if (!options.clientExtensions) (await toolIndex()).record(connections.map((connection) => ({ name: connection.name, tools: connection.tools.map((tool) => tool.name), era: connection.era.era })));
    for (const connection of connections) {
      for (const broken of connection.brokenTools) cli.terminal.warn(`MCP server '${connection.name}': tool '${broken.name}' left out, its definition is broken: ${broken.problem}`);
    }
    return failuresAmong(names);
  };
  // Loaded with the first server: a local tool never needs it.
  let index: Promise<ToolIndex> | undefined;
  const toolIndex = () => (index ??= import('../../cache/tool-index.js').then(({ ToolIndex }) => new ToolIndex(config, cli.env, (note) => cli.terminal.verbose(note))));
  const likelyServersFor = async (toolName: string) => {
    if (!cli.globals.cache) return undefined;
    const likely = (await toolIndex()).serversFor(toolName);
    return likely.length < Object.keys(config.servers).length ? likely : undefined;
  };
  return { config, registry, executor, connect, likelyServersFor };
}

/** Connections to the servers among `names` that this config's live holder keeps; none without one. */
async function heldConnections(cli: CliContext, config: ToolrunConfig, names: string[]) {
  const { findHolder, missingFromHolder } = await import('../../session/find-holder.js');
  const found = await findHolder(cli, config);
  if (!found) return [];
  // Sampling or roots the holder's servers were not told of: they would never ask. Started here instead.
  const mismatch = (await import('../../session/answer-holder-ask.js')).askBackMismatch(cli, found.status);
  if (mismatch) {
    cli.terminal.verbose(`session: ${mismatch}; starting servers here`);
    return [];
  }
  // Live, or crashed and restarted by the holder when asked (session/crashed-servers.ts).
  const live = names.filter((name) => !missingFromHolder(found.status, [name]));
  for (const name of names.filter((name) => !live.includes(name))) cli.terminal.verbose(`session: ${missingFromHolder(found.status, [name])}; starting '${name}' here`);
  if (live.length === 0) return [];
  const { holderConnections } = await import('../../session/holder-connection.js');
  let connections: ServerConnection[];
  try {
    connections = await holderConnections(cli, config, found.client, found.status.pid, live);
  } catch (error) {
    cli.terminal.verbose(`session: the holder failed (${(error as Error).message}); starting servers here`);
    return [];
  }
  cli.terminal.verbose(`session: ${connections.map((connection) => connection.name).join(', ')} served by the holder (pid ${found.status.pid})`);
  return connections;
}

async function startMathWorkerEarly(cli: CliContext) {
  const { createToolHosts } = await import('../../tools/tool-hosts.js');
  const hosts = createToolHosts();
  cli.onExit(() => hosts.close());
  hosts.math.warmUp();
  return hosts;
}

/** A server not started because its host gates it (hosts/refused-servers.ts isGatedRefusal): no failure where all servers are listed. */
export function isGatedFailure(failure: ConnectFailure): boolean {
  return failure.notStarted === true && isGatedRefusal(failure.causeId);
}
