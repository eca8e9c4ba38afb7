import type { ToolrunConfig } from '../config/config-types.js';

/** The builtin tools' names (tools/builtin-definitions.ts; a test keeps the two in step). */
export const BUILTIN_TOOL_NAMES = ['get_current_datetime', 'math_eval', 'echo'] as const;

/**
 * Is this plain name a local tool (builtin or the config's)? Local tools always run in the command's
 * own process (its cwd, its env) and win over MCP tools of the same name, so no server is needed.
 */
export function isLocalTool(config: ToolrunConfig, name: string): boolean {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name) || config.tools.some((tool) => tool.name === name);
}
