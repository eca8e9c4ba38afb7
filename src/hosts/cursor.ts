import type { HostReader } from './host-types.js';
import { readServerMap } from './server-entry.js';

/**
 * Cursor: global `~/.cursor/mcp.json` (Windows %USERPROFILE%\.cursor\mcp.json), project
 * `.cursor/mcp.json` (docs.cursor.com "Model Context Protocol"; userjot.com/docs/mcp-cursor).
 * Shape `mcpServers` (command/args/env or url/headers). Cursor interpolates `${env:NAME}`,
 * `${userHome}`, `${workspaceFolder}`, `${workspaceFolderBasename}`, `${pathSeparator}` in command,
 * args, env, url and headers (Cursor's MCP docs, "Config interpolation"), and reads `envFile`
 * (stdio only: "Path to an environment file to load more variables"), which toolrun reads too.
 */
export const readCursor: HostReader = (text, context) => readServerMap(text, context, 'mcpServers', { style: 'editor', envFile: true });
