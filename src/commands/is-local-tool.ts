import type { ToolrunConfig } from '../config/config-types.js';
import { BUILTIN_DEFINITIONS } from '../tools/builtin-definitions.js';

/**
 * Is this plain name a local tool (builtin or the config's)? Local tools always run in the command's
 * own process (its cwd, its env) and win over MCP tools of the same name, so no server is needed.
 */
export function isLocalTool(config: ToolrunConfig, name: string): boolean {
  return BUILTIN_DEFINITIONS.some((definition) => definition.name === name) || config.tools.some((tool) => tool.name === name);
}
