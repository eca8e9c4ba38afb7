import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isConnectionLost } from '../mcp/connection-lost.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import { rpcError } from './rpc-error.js';

/**
 * An upstream's own JSON-RPC error keeps its code and message; the connection ending under the call
 * (the server died), or the call timing out, is said in words that name the server. Masked.
 */
export function upstreamError(server: string, connection: ServerConnection, error: unknown): Error {
  const code = (error as { code?: unknown }).code;
  const message = (error instanceof Error ? error.message : String(error)).replace(/^(MCP error -?\d+: )+/, '');
  if (isConnectionLost(connection) || sdkConnectionClosed(code, message, error)) {
    const stderr = connection.stdio?.stderr.lastLines(2) ?? [];
    const last = stderr.length > 0 ? `; its stderr ended with: ${stderr.join(' / ')}` : '';
    return rpcError(ErrorCode.InternalError, maskSecrets(`MCP server '${server}' went away during the call (it is started again for the next one)${last}`));
  }
  if (code === ErrorCode.RequestTimeout) return rpcError(ErrorCode.InternalError, maskSecrets(`MCP server '${server}' did not answer in time: ${message}`));
  if (typeof code === 'number') return rpcError(code, maskSecrets(message), error instanceof McpError ? error.data : undefined);
  return rpcError(ErrorCode.InternalError, maskSecrets(`MCP server '${server}' failed the call: ${message}`));
}

/**
 * The SDK's own "the connection closed under the call": an McpError it makes with code -32000
 * (ErrorCode.ConnectionClosed) and the message "Connection closed" (Protocol._onclose in
 * @modelcontextprotocol/sdk shared/protocol.ts), with no data. -32000 is also the first code of
 * JSON-RPC 2.0's range for a server's own errors (-32000 to -32099, "Server error"), which servers
 * use for their own refusals: such an error is relayed as the upstream's, not as the server gone.
 */
function sdkConnectionClosed(code: unknown, message: string, error: unknown): boolean {
  return code === ErrorCode.ConnectionClosed && message === 'Connection closed' && (error as { data?: unknown }).data === undefined;
}
