import { ToolrunError } from '../errors.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { EndlessListError } from '../mcp/list-pages.js';

/** MCP's "resource not found" (2025 family; 2026-07-28 uses -32602 invalid params). */
const RESOURCE_NOT_FOUND = -32002;
const INVALID_PARAMS = -32602;
const REQUEST_TIMEOUT = -32001;

/**
 * A failed resources/prompts request as one line: an unknown name or URI is exit 2 (like an unknown
 * tool), a timeout or any other refusal exit 1, the server's own words kept.
 */
export function mcpRequestError(connection: ServerConnection, method: string, error: unknown, subject?: string): ToolrunError {
  // A list that never ends is the server's fault, told with its name like any other refusal.
  if (error instanceof ToolrunError && !(error instanceof EndlessListError)) return error;
  const code = (error as { code?: unknown })?.code;
  const message = String((error as Error)?.message ?? error).replace(/^(MCP error -?\d+: )+/, '');
  const about = subject ? ` for '${subject}'` : '';
  if (code === RESOURCE_NOT_FOUND || (code === INVALID_PARAMS && /not found|unknown/i.test(message))) {
    return new ToolrunError('not_found', `MCP server '${connection.name}' answered ${method}${about}: ${message}`);
  }
  if (code === REQUEST_TIMEOUT) return new ToolrunError('timeout', `MCP server '${connection.name}' did not answer ${method}${about} in time (raise --timeout)`);
  return new ToolrunError('tool_error', `MCP server '${connection.name}' failed ${method}${about}: ${message}`);
}
