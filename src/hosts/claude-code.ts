import type { HostFileRead, HostReadContext, HostReader } from './host-types.js';
import { isObject, serverMapOf } from './server-entry.js';
import { parseHostJson } from './parse-host-json.js';
import { childPath } from '../config/config-problems.js';

/**
 * Claude Code: `~/.claude.json` holds user servers (`mcpServers`) and local ones, per project, under
 * `projects["<absolute path>"].mcpServers`; the project's shared `.mcp.json` has `mcpServers`.
 * Precedence local > project > user. `${VAR}` and `${VAR:-default}` are expanded in command, args,
 * env, url and headers. Source: code.claude.com/docs (MCP: "MCP installation scopes",
 * "Environment variable expansion in .mcp.json"). Entries have `type` stdio | sse | http.
 */
export const readClaudeCodeProject: HostReader = (text, context) => readMap(text, context, (value) => value);

/** `~/.claude.json`'s own `mcpServers` (user scope). */
export const readClaudeCodeUser: HostReader = (text, context) => readMap(text, context, (value) => value);

/** `~/.claude.json`'s `projects[projectDir].mcpServers` (local scope). */
export const readClaudeCodeLocal: HostReader = (text, context) => {
  const read = readMap(text, context, (value) => (isObject(value) && isObject(value.projects) && isObject(value.projects[context.projectDir]) ? value.projects[context.projectDir] : {}));
  for (const server of read.servers) server.place = `${childPath('projects', context.projectDir)}.${server.place}`;
  return read;
};

function readMap(text: string, context: HostReadContext, pick: (value: unknown) => unknown): HostFileRead {
  const parsed = parseHostJson(text);
  if ('problem' in parsed) return { servers: [], problems: [parsed.problem] };
  return serverMapOf(pick(parsed.value), 'mcpServers', context, { style: 'shell' });
}
