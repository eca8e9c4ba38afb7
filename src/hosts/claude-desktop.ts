import type { HostReader } from './host-types.js';
import { readServerMap } from './server-entry.js';

/**
 * Claude Desktop: `claude_desktop_config.json`, `{"mcpServers": {NAME: {command, args, env}}}`.
 * Sources: modelcontextprotocol.io's "Connect to local MCP servers" (macOS ~/Library/Application
 * Support/Claude, Windows %APPDATA%\Claude; same paths in playwright.dev/mcp/clients/claude-desktop).
 * Claude Desktop expands no variables in its entries (not confirmed in its source, which is closed:
 * its docs show literal values only), so a `${` stays literal.
 */
export const readClaudeDesktop: HostReader = (text, context) => readServerMap(text, context, 'mcpServers', { style: 'literal' });
