import type { HostReader } from './host-types.js';
import { readServerMap } from './server-entry.js';

/**
 * Windsurf: `~/.codeium/windsurf/mcp_config.json` (Windows %USERPROFILE%\.codeium\windsurf), no
 * project file. Shape `mcpServers`; a remote server's URL is `serverUrl` (a Cursor-style `url` is
 * also read here). Sources: docs.windsurf.com/windsurf/cascade/mcp, confluentinc/mcp-confluent's
 * docs/configuring-windsurf.md. Windsurf's docs describe `${env:VAR}` and `${file:path}`
 * interpolation: editor style (`${file:…}` cannot be filled in by toolrun: unresolved).
 */
export const readWindsurf: HostReader = (text, context) => readServerMap(text, context, 'mcpServers', { style: 'editor', urlKeys: ['serverUrl'] });
