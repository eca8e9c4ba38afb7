import { ServerUnavailableError, ToolrunError } from '../../errors.js';
import type { RegisteredTool } from '../../registry/tool-types.js';
import type { OpenTools } from './open-tools.js';
import { toolrunCommand } from '../../text/quote-shell-word.js';

/**
 * Finds the tool a command names, starting only the servers it needs: none for a local tool,
 * the one server of `--server NAME` / `NAME:TOOL`, else all (to discover where the tool lives).
 * A tool that may live on a server that could not be connected is exit 4, not "not found".
 */
export async function resolveTool(opened: OpenTools, name: string, server: string | undefined): Promise<RegisteredTool> {
  const { registry } = opened;
  if (!server) {
    const local = registry.find(name);
    if (local) return registry.get(name);
    // A plain name starts only the servers the tool index points to; checked against their live lists.
    const likely = await opened.likelyServersFor(name);
    if (likely) {
      await opened.connect(likely);
      if (registry.find(name)) return registry.get(name);
    }
  }
  const failures = await opened.connect(server ? [server] : undefined);
  if (registry.find(name, server)) return registry.get(name, server);
  for (const status of registry.servers.values()) {
    if (status.status !== 'connected' || (server && status.connection.name !== server)) continue;
    const broken = status.connection.brokenTools.find((tool) => tool.name === name);
    if (broken)
      throw new ToolrunError(
        'tool_error',
        `Tool '${name}' of MCP server '${status.connection.name}' has a broken definition (${broken.problem}); the server must fix it. Its other tools work: ${toolrunCommand('list', '--server', status.connection.name)}`,
      );
  }
  if (failures.length > 0) {
    const names = failures.map((failure) => `'${failure.server}'`).join(', ');
    if (server) throw new ServerUnavailableError(server, `Tool '${name}' is unavailable: MCP server '${server}' could not be connected (${failures[0]!.reason})`);
    throw new ServerUnavailableError(
      failures[0]!.server,
      `Tool '${name}' not found among the available tools; MCP server${failures.length === 1 ? '' : 's'} ${names} could not be connected, so ${failures.length === 1 ? 'its' : 'their'} tools are unknown`,
    );
  }
  return registry.get(name, server);
}
