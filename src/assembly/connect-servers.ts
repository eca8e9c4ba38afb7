import type { ToolrunConfig } from '../config/config-types.js';
import { resolveServer } from '../config/resolve-server.js';
import { hostAwareChecks } from './host-advice.js';
import type { Registry } from './server-status.js';
import type { ConnectHooks } from '../mcp/connect/connect-once.js';
import { notStartedFailure, type ConnectFailure } from '../mcp/connect/connect-failure.js';
import { openSession, ServerConnectError, type RetryLogger } from '../mcp/connect/open-session.js';
import { mapWithLimit, parallelStartLimit } from '../process/parallel-starts.js';
import { preloadToolAdapter, registerMcpTools } from './register-mcp-tools.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { currentEnv } from '../run-environment.js';

export interface ConnectServersOptions {
  logger: RetryLogger;
  hooks?: ConnectHooks;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** false for commands about resources or prompts: the tools are listed (doctor-grade checks) but not adapted and registered. */
  registerTools?: boolean;
  /** false: the tools are registered without their LangChain adaptation (register-mcp-tools.ts); a session holder's. */
  adaptTools?: boolean;
  /** Connections already made elsewhere (a session holder's): registered with the others, in config order. */
  ready?: ServerConnection[];
}

export interface ConnectServersResult {
  connections: ServerConnection[];
  failures: ConnectFailure[];
}

/**
 * Connects the named servers in parallel, each with retry, and registers their tools. A server that
 * fails is reported, not thrown: local tools and the other servers go on working. An unset ${VAR}
 * in a needed server's entry is a ConfigError (thrown before anything is started).
 */
export async function connectServers(registry: Registry, config: ToolrunConfig, names: string[], options: ConnectServersOptions): Promise<ConnectServersResult> {
  const ready = new Map((options.ready ?? []).map((connection) => [connection.name, connection]));
  // A server its host would not start (`--host`) is reported as not started, beside the others: never started, never blocking them.
  const refused = names.flatMap((name) => {
    const refusal = config.servers[name]?.refused;
    return refusal && !ready.has(name) ? [notStartedFailure(name, refusal)] : [];
  });
  const specs = names.filter((name) => !ready.has(name) && !config.servers[name]?.refused).map((name) => resolveServer(config, config.servers[name]!, options.env));
  // The tool adapter (@langchain/mcp-adapters, ~80 ms to load) loads while the servers start and
  // answer their handshake, time this process otherwise spends waiting, not after.
  if (options.registerTools !== false && options.adaptTools !== false) preloadToolAdapter();
  // Bounded: hundreds of servers started at once would run out of file descriptors (SPEC §8).
  const outcomes = await mapWithLimit(specs, parallelStartLimit(), async (spec) => {
    try {
      const connection = await openSession(spec, config.retry, options);
      registry.onClose(async () => {
        await connection.close();
      });
      return connection;
    } catch (error) {
      if (error instanceof ServerConnectError) return error.failure;
      throw error;
    }
  });
  const made = new Map(outcomes.filter((outcome): outcome is ServerConnection => 'client' in outcome).map((connection) => [connection.name, connection]));
  const connections = names.flatMap((name) => ready.get(name) ?? made.get(name) ?? []);
  const failures = [...refused, ...outcomes.filter((outcome): outcome is ConnectFailure => !('client' in outcome)).map((failure) => hostAwareChecks(failure, config, options.env ?? currentEnv()))];
  // Registered in config order, once all are in, so "the later registration wins" does not depend on timing.
  if (options.registerTools !== false) for (const connection of connections) await registerMcpTools(registry, connection, { adapt: options.adaptTools });
  for (const connection of connections) registry.servers.set(connection.name, { status: 'connected', connection });
  for (const failure of failures) registry.servers.set(failure.server, { status: 'failed', failure });
  return { connections, failures };
}
