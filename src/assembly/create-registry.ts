import type { Writable } from 'node:stream';
import type { ToolrunConfig } from '../config/config-types.js';
import type { AskBack } from '../mcp/ask-back.js';
import { defaultConfig } from '../config/build-config.js';
import { registerLocalTools } from './register-local-tools.js';
import { createToolHosts, type ToolHosts } from '../tools/tool-hosts.js';
import { ToolRegistry, type RegistryLogger } from '../registry/tool-registry.js';
import type { Registry, ServerStatus } from './server-status.js';
import { currentCwd } from '../run-environment.js';

export interface CreateRegistryOptions {
  logger?: RegistryLogger;
  /** Where local tools' console output goes (default: stderr). */
  diagnostics?: Writable;
  /** Worker threads already started (the CLI starts math_eval's before loading the engine). */
  hosts?: ToolHosts;
  /** MCP servers to connect now: all configured ones (the default), none, or these. */
  servers?: 'all' | 'none' | string[];
  /** Aborts connecting (retries included). */
  signal?: AbortSignal;
  /**
   * How servers that ask back are answered (SPEC §15): `elicit` (elicitation/create, or an
   * input_required round in 2026-07-28), `sample` (sampling/createMessage), `roots` (roots/list).
   * Each one given is advertised to every server; what is absent is not.
   */
  askBack?: AskBack;
}

/**
 * A registry with the builtin tools, the config's local tools and the tools of its MCP servers
 * (connected in parallel, with retry; a server that fails is in `registry.servers` as failed, and
 * its failure is logged). Call `registry.close()` when done: it ends worker threads and servers.
 */
export async function createRegistry(config?: ToolrunConfig, options: CreateRegistryOptions = {}): Promise<Registry> {
  const resolved = config ?? defaultConfig(currentCwd());
  // Ajv is needed to check user-written schemas only; the builtins' validators are precompiled.
  const checkSchema = resolved.tools.length > 0 ? (await import('../schema/compile-schema.js')).checkSchema : undefined;
  const registry = new ToolRegistry<ServerStatus>({ logger: options.logger, checkSchema });
  const hosts = options.hosts ?? createToolHosts(options.diagnostics);
  registry.onClose(() => hosts.close());
  registerLocalTools(registry, resolved.tools, hosts);
  const servers = options.servers ?? 'all';
  const names = servers === 'all' ? Object.keys(resolved.servers) : servers === 'none' ? [] : servers;
  if (names.length > 0) {
    const { connectServers } = await import('./connect-servers.js');
    const logger = { warn: (message: string) => options.logger?.warn(message), info: (message: string) => options.logger?.warn(message) };
    await connectServers(registry, resolved, names, { logger, signal: options.signal, hooks: { askBack: options.askBack } });
  }
  return registry;
}
