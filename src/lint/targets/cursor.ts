import type { Finding, LintTarget, ServerTools } from '../lint-types.js';
import { allTools, finding, tooManyTools, toolName } from '../rule-helpers.js';

/*
 * Cursor. Its documentation said "Cursor will only send the first 40 tools to the Agent"
 * (docs.cursor.com/context/model-context-protocol#limitations, 2025; later versions warn past 40
 * and are reported to load MCP tools lazily since 2.4). The 60-character limit on server and tool
 * name together is Cursor's own UI text ("Combined server and tool name length (65) exceeds 60
 * characters", tools "may be filtered out"), reported by many users (awslabs/mcp#1283,
 * ComposioHQ/composio#2788) but not documented: marked unconfirmed.
 */
const LIMITS_DOC = 'https://docs.cursor.com/context/model-context-protocol#limitations';
const NAME_LENGTH_REPORT = 'https://github.com/awslabs/mcp/issues/1283';

const MAX_TOOLS = 40;
const MAX_COMBINED_NAME = 60;

function check(servers: ServerTools[]): Finding[] {
  const target = 'cursor';
  const findings = tooManyTools(target, servers, {
    limit: MAX_TOOLS,
    severity: 'warning',
    consequence: 'Cursor sends only the first 40 tools to the agent (newer versions warn that models may not respect more)',
    fix: 'offer fewer tools, or tell users which to turn off',
    source: LIMITS_DOC,
  });
  for (const { server, tool } of allTools(servers)) {
    const name = toolName(tool);
    const combined = server.length + name.length;
    if (combined > MAX_COMBINED_NAME) {
      findings.push(
        finding(target, {
          rule: 'name-length',
          severity: 'error',
          server,
          tool: name,
          path: '$.name',
          message: `server and tool name are ${combined} characters together: Cursor filters out tools past ${MAX_COMBINED_NAME}`,
          fix: `keep server name + tool name within ${MAX_COMBINED_NAME} characters`,
          source: NAME_LENGTH_REPORT,
          confirmed: false,
        }),
      );
    }
  }
  return findings;
}

export const cursor: LintTarget = { name: 'cursor', version: 1, title: 'Cursor', format: 'openai', check };
