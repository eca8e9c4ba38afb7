import type { HostReader } from './host-types.js';
import { readServerMap } from './server-entry.js';

/**
 * Cline: `cline_mcp_settings.json` in VS Code's globalStorage for saoudrizwan.claude-dev, shape
 * `mcpServers` with `disabled`, `autoApprove`, `timeout` (seconds, per call) and `type`
 * (stdio | sse | streamableHttp; syllago.dev lists streamable-http: both read). Path: gist
 * danielrosehill/ec279319 and syllago.dev/using-syllago/providers/cline/mcp (Linux layout); fields:
 * docs.cline.bot/mcp/configuring-mcp-servers: not checked in Cline's source this session.
 * Variables: Cline expands none as far as found (unconfirmed): literal.
 */
export const readCline: HostReader = (text, context) => readServerMap(text, context, 'mcpServers', { style: 'literal', types: { streamableHttp: 'http', 'streamable-http': 'http' } });
