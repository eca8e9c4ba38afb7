import type { HostReader } from './host-types.js';
import { readServerMap } from './server-entry.js';

/**
 * Roo Code: global `mcp_settings.json` in VS Code's globalStorage for rooveterinaryinc.roo-cline,
 * project `.roo/mcp.json`, whose servers win over global ones of the same name
 * (docs.roocode.com/features/mcp/using-mcp-in-roo). Shape `mcpServers` with `disabled`,
 * `alwaysAllow`, `timeout`, `type` (stdio | sse | streamable-http), `cwd`. Variables: `${env:VAR}`
 * (rulesync's Roo generator writes them; Roo's docs list ${env:…}): editor style.
 */
export const readRoo: HostReader = (text, context) => readServerMap(text, context, 'mcpServers', { style: 'editor', types: { 'streamable-http': 'http' } });
