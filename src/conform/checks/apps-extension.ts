import type { ConformCheck } from '../check-types.js';
import type { CheckEvidence } from '../conform-types.js';
import { openHandshake } from '../handshake.js';
import type { McpClient } from '../../mcp/mcp-client.js';
import { APPS_CLIENT_EXTENSIONS, APPS_EXTENSION, isRecord, SOURCES } from '../../extensions/apps/apps-wire.js';
import { collectApps } from '../../extensions/apps/collect-apps.js';
import { checkApps } from '../../extensions/apps/apps-rules.js';
import { describeAnswer } from './findings.js';

/**
 * MCP Apps (SEP-1865), when the server declares `io.modelcontextprotocol/ui`: on a fresh connection
 * that claims the extension (SPEC §23: the only conform connection that does, since some servers
 * list their App tools only to such a client), the rules of `mcp apps` (src/extensions/apps/rules/):
 * an error-level finding fails the check, a warning warns, notes are left to `mcp apps`.
 */
export const appsExtension: ConformCheck = {
  id: 'extensions.apps',
  title: 'MCP Apps: each tool UI is a readable ui:// HTML resource, its CSP on the resource, loading only what it declares',
  section: SOURCES.spec,
  async run(context) {
    const extensions = context.capabilities.extensions;
    if (!isRecord(extensions) || extensions[APPS_EXTENSION] === undefined) return { verdict: 'skip', message: `the server does not declare ${APPS_EXTENSION}` };
    const fresh = await context.openFreshChannel();
    fresh.clientCapabilities = { extensions: APPS_CLIENT_EXTENSIONS };
    const handshake = await openHandshake(fresh, context.channel.protocolVersion);
    if (!handshake.ok) return { verdict: 'fail', message: `a connection claiming ${APPS_EXTENSION} failed its handshake: ${handshake.how}` };
    // The rules gather their evidence through this connection as through a client's (collect-apps.ts).
    const client = {
      capabilities: handshake.capabilities,
      request: async (method: string, params?: Record<string, unknown>) => {
        const answer = await fresh.request(method, params);
        if (answer.kind === 'result') return answer.result;
        throw new Error(describeAnswer(answer));
      },
    } as unknown as McpClient;
    let evidence;
    try {
      evidence = await collectApps('server', client, { signal: context.signal });
    } catch (error) {
      return { verdict: 'fail', message: `with ${APPS_EXTENSION} claimed, tools/list failed: ${(error as Error).message}` };
    }
    const findings = checkApps([evidence]).filter((finding) => finding.severity !== 'note');
    const shown: CheckEvidence[] = findings.slice(0, 20).map((finding) => ({ detail: `${finding.rule}${finding.tool ? ` (${finding.tool})` : ''}: ${finding.message}`, path: finding.path }));
    const errors = findings.filter((finding) => finding.severity === 'error');
    const uis = evidence.reads.size;
    if (errors.length > 0) return { verdict: 'fail', message: `${errors[0]!.rule}: ${errors[0]!.message}${findings.length > 1 ? ` (and ${findings.length - 1} more)` : ''}`, evidence: shown };
    if (findings.length > 0) return { verdict: 'warn', message: `${findings[0]!.rule}: ${findings[0]!.message}${findings.length > 1 ? ` (and ${findings.length - 1} more)` : ''}`, evidence: shown };
    return { verdict: 'pass', message: `${uis} UI resource${uis === 1 ? '' : 's'} of ${evidence.tools.length} tools checked with ${APPS_EXTENSION} claimed` };
  },
};
