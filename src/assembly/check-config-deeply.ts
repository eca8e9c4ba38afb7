import { existsSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { checkSchema } from '../schema/compile-schema.js';
import { BUILTIN_TOOLS } from '../tools/builtin-tools.js';
import type { ConfigProblem } from '../config/check-config.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { resolveServer } from '../config/resolve-server.js';

/**
 * What `toolrun validate` checks beyond the file's shape: every tool schema is valid JSON Schema,
 * builtin handlers exist, internal modules exist, and every server's `${VAR}`s are set.
 */
export function checkConfigDeeply(config: ToolrunConfig, env: NodeJS.ProcessEnv): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  config.tools.forEach((tool, index) => {
    const path = `tools[${index}]`;
    const schemaProblem = checkSchema(tool.parameters);
    if (schemaProblem) problems.push({ path: `${path}.parameters`, message: `not valid JSON Schema: ${schemaProblem}` });
    const implementation = tool.implementation;
    if (implementation.type === 'builtin' && !BUILTIN_TOOLS[implementation.handler]) {
      problems.push({ path: `${path}.implementation.handler`, message: `Builtin handler '${implementation.handler}' not found; builtin handlers: ${Object.keys(BUILTIN_TOOLS).join(', ')}` });
    }
    if (implementation.type === 'internal' && !existsSync(implementation.module)) {
      problems.push({ path: `${path}.implementation.module`, message: `module file not found: ${implementation.module}` });
    }
  });
  for (const server of Object.values(config.servers)) {
    // A server its host would not start is named when servers are connected ("not started"), not a config problem.
    if (server.refused) continue;
    try {
      resolveServer(config, server, env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push({ path: error.jsonPath ?? `mcpServers.${server.name}`, message: error.detail });
    }
  }
  return problems;
}
