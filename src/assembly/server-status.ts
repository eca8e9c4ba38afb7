import type { ConnectFailure } from '../mcp/connect/connect-failure.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import type { ToolRegistry } from '../registry/tool-registry.js';

/** What a run knows of one MCP server it asked for: connected, or why not. */
export type ServerStatus = { status: 'connected'; connection: ServerConnection } | { status: 'failed'; failure: ConnectFailure };

/** The registry of a toolrun run: its tools, and the MCP servers they came from. */
export type Registry = ToolRegistry<ServerStatus>;
