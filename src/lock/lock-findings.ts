import { lintServers } from '../lint/lint-servers.js';
import type { ServerTools } from '../lint/lint-types.js';
import type { LockedFinding } from './lock-types.js';

/**
 * The `mcp lint` rules that matter to trust (SPEC §24): text the user cannot see or that reads in
 * another order (mcp/invisible-text, mcp/bidi-text: hidden text and invisible Unicode),
 * instructions aimed at the model (mcp/instruction-text), and a tool name another server offers too
 * (mcp/name-collision: cross-server shadowing). The rules themselves are lint's (src/lint/mcp-rules.ts).
 */
export const TRUST_RULES = new Set(['mcp/invisible-text', 'mcp/bidi-text', 'mcp/instruction-text', 'mcp/name-collision']);

/** The trust findings of these servers' tools, judged together (shadowing is across servers), by server. */
export async function trustFindings(servers: ServerTools[]): Promise<Map<string, LockedFinding[]>> {
  const report = await lintServers(servers, { targets: [] });
  const byServer = new Map<string, LockedFinding[]>(servers.map(({ server }) => [server, []]));
  for (const finding of report.findings) {
    if (!TRUST_RULES.has(finding.rule)) continue;
    byServer.get(finding.server)?.push({ rule: finding.rule, ...(finding.tool === undefined ? {} : { tool: finding.tool }), path: finding.path, message: finding.message });
  }
  return byServer;
}
