import type { Finding, LintTarget, ServerTools } from '../lint-types.js';
import { tooManyTools } from '../rule-helpers.js';

/*
 * Windsurf (Cascade): "Cascade has a limit of 100 total tools that it has access to at any given
 * time. On each MCP settings page, you can toggle the tools that you wish to enable."
 * (docs.windsurf.com/windsurf/cascade/mcp). No name or schema limit is documented.
 */
const MCP_DOC = 'https://docs.windsurf.com/windsurf/cascade/mcp';

function check(servers: ServerTools[]): Finding[] {
  return tooManyTools('windsurf', servers, {
    limit: 100,
    severity: 'error',
    consequence: 'Cascade has access to at most 100 tools in all; users must turn tools off to enable the server',
    fix: 'offer fewer tools, or tell users which to turn off',
    source: MCP_DOC,
  });
}

export const windsurf: LintTarget = { name: 'windsurf', version: 1, title: 'Windsurf (Cascade)', format: 'openai', check };
