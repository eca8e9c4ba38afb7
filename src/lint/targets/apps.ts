import type { LintTarget, ServerTools } from '../lint-types.js';
import { checkApps } from '../../extensions/apps/apps-rules.js';

/*
 * MCP Apps (SEP-1865, io.modelcontextprotocol/ui): the rules of `toolrun mcp apps`
 * (src/extensions/apps/rules/, each citing the ext-apps specification or the reported bug), over
 * each server's tools, UI resources and their HTML. It judges live servers only: lint connects
 * them claiming the extension (the only lint target that does) and reads their UI resources; a
 * snapshot holds neither. Not among the default targets: `--target apps`.
 */
function check(servers: ServerTools[]) {
  return checkApps(servers.flatMap((server) => (server.apps ? [server.apps] : [])));
}

export const apps: LintTarget = { name: 'apps', version: 1, title: 'MCP Apps (io.modelcontextprotocol/ui, SEP-1865)', format: 'openai', probesApps: true, check };
