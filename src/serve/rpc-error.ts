/**
 * An error a handler throws to answer a JSON-RPC error with this code and message as they are. The
 * 1.x SDK sends an error's `code`, `message` and `data`; its McpError would put "MCP error -32602: "
 * into the message itself, which the client's SDK then prefixes once more.
 */
export function rpcError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}
