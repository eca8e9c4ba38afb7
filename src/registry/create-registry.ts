import type { Writable } from 'node:stream';
import type { ToolrunConfig } from '../config/config-types.js';
import { checkConfig } from '../config/check-config.js';
import { registerLocalTools } from '../tools/register-local-tools.js';
import { createToolHosts, type ToolHosts } from '../tools/tool-hosts.js';
import { ToolRegistry, type RegistryLogger } from './tool-registry.js';

export interface CreateRegistryOptions {
  logger?: RegistryLogger;
  /** Where local tools' console output goes (default: stderr). */
  diagnostics?: Writable;
  /** Worker threads already started (the CLI starts math_eval's before loading the engine). */
  hosts?: ToolHosts;
}

/**
 * A registry with the builtin tools and the config's local tools. Call `registry.close()` when done:
 * it ends the worker threads the tools may have started.
 */
export async function createRegistry(config?: ToolrunConfig, options: CreateRegistryOptions = {}): Promise<ToolRegistry> {
  const resolved = config ?? checkConfig({}, null, process.cwd()).config;
  // Ajv is needed to check user-written schemas only; the builtins' validators are precompiled.
  const checkSchema = resolved.tools.length > 0 ? (await import('../schema/compile-schema.js')).checkSchema : undefined;
  const registry = new ToolRegistry({ logger: options.logger, checkSchema });
  const hosts = options.hosts ?? createToolHosts(options.diagnostics);
  registry.onClose(() => hosts.close());
  registerLocalTools(registry, resolved.tools, hosts);
  return registry;
}
