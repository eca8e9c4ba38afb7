import { draft07SchemaProblem } from '../../schema/compile-schema.js';
import type { ApiItem } from '../../snapshot/snapshot-types.js';
import type { Finding, LintTarget, ServerTools } from '../lint-types.js';
import { allTools, finding, findingsOfTool, inputSchemaNodes, rootSchema, sameNames, toolName, tooManyTools } from '../rule-helpers.js';
import { isSchemaObject } from '../schema-walk.js';

/*
 * VS Code with GitHub Copilot Chat. Sources, read at these commits:
 * - microsoft/vscode src/vs/workbench/contrib/mcp/common/mcpTypes.ts @006c4ca9 (`McpToolName`: prefix
 *   `mcp_`, prefix ≤ 18 characters, id ≤ 64) and mcpServer.ts @0052d689 (`McpPrefixGenerator.take`,
 *   `_normalizeTool`: names outside [a-z0-9_-] rewritten with a warning; the id cut to 64, issue
 *   #243602; inputSchema checked against draft-07 and the tool omitted when it fails).
 * - microsoft/vscode-copilot-chat @31acd00a: src/platform/configuration/common/configurationService.ts:509
 *   (`HARD_TOOL_LIMIT = 128`), src/extension/prompt/node/chatMLFetcher.ts:2113 ("Tool limit
 *   exceeded"), CHANGELOG.md:859 (virtual tools above the threshold), and
 *   src/extension/tools/common/toolSchemaNormalizer.ts:56-196 (an array without `items` fails the
 *   tool; a top-level oneOf/anyOf/allOf/not is deleted).
 */
const VSCODE_TYPES = 'https://github.com/microsoft/vscode/blob/006c4ca931cf8116352d6a3f1a2056320f5e6194/src/vs/workbench/contrib/mcp/common/mcpTypes.ts';
const VSCODE_SERVER = 'https://github.com/microsoft/vscode/blob/0052d689f910e056718b44fdecc7a5e1ad2c3b66/src/vs/workbench/contrib/mcp/common/mcpServer.ts';
const TOOL_LIMIT = 'https://github.com/microsoft/vscode-copilot-chat/blob/31acd00a86424e2ee6e980e54919cf31fbf88030/src/extension/prompt/node/chatMLFetcher.ts#L2113';
const NORMALIZER = 'https://github.com/microsoft/vscode-copilot-chat/blob/31acd00a86424e2ee6e980e54919cf31fbf88030/src/extension/tools/common/toolSchemaNormalizer.ts';

const PREFIX = 'mcp_';
const MAX_PREFIX = 18;
const MAX_ID = 64;
const INVALID_CHARACTER = /[^a-z0-9_-]/gi;

/** `mcp_<server>_<tool>` as VS Code builds it (the server part lowercased and cut to fit 18 characters). */
export function vscodeToolId(server: string, tool: ApiItem): string {
  const prefix = `${PREFIX}${server
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '_')
    .slice(0, MAX_PREFIX - PREFIX.length - 1)}_`;
  return `${prefix}${toolName(tool).replace(INVALID_CHARACTER, '_')}`.replaceAll('.', '_').slice(0, MAX_ID);
}

function check(servers: ServerTools[]): Finding[] {
  const target = 'vscode';
  const findings = tooManyTools(target, servers, {
    limit: 128,
    severity: 'warning',
    consequence: 'Copilot groups the tools past 128 into virtual tools the model must expand first, and with grouping off the request fails ("Tool limit exceeded")',
    fix: 'offer fewer tools, or let users turn some off',
    source: TOOL_LIMIT,
  });
  for (const { server, tool } of allTools(servers)) {
    const name = toolName(tool);
    const add = findingsOfTool(findings, target, server, name);
    if (INVALID_CHARACTER.test(name.replaceAll('.', '_'))) {
      add({
        rule: 'name-characters',
        severity: 'warning',
        path: '$.name',
        message: `VS Code takes tool names of [a-z0-9_-] only and calls this one '${vscodeToolId(server, tool)}'`,
        fix: 'use letters, digits, _ and - in the name',
        source: VSCODE_SERVER,
      });
    }
    INVALID_CHARACTER.lastIndex = 0;
    const full = `${PREFIX}${server}_${name}`;
    if (full.length > MAX_ID) {
      add({
        rule: 'name-length',
        severity: 'warning',
        path: '$.name',
        message: `'${full}' is ${full.length} characters: VS Code cuts tool ids to ${MAX_ID} ('${vscodeToolId(server, tool)}')`,
        fix: `keep server and tool name within ${MAX_ID - PREFIX.length - 1} characters together`,
        source: VSCODE_TYPES,
      });
    }
    const schema = rootSchema(tool);
    if (schema) {
      const problem = draft07SchemaProblem({ properties: {}, ...schema });
      if (problem) {
        add({
          rule: 'invalid-schema',
          severity: 'error',
          path: '$.inputSchema',
          message: `not a valid draft-07 JSON Schema (${problem}): VS Code omits the tool`,
          fix: 'make the inputSchema valid JSON Schema',
          source: VSCODE_SERVER,
        });
      }
      for (const keyword of ['oneOf', 'anyOf', 'allOf', 'not']) {
        if (keyword in schema) {
          add({
            rule: 'top-level-combinator',
            severity: 'warning',
            path: `$.inputSchema.${keyword}`,
            message: `Copilot deletes a top-level ${keyword}: the model never sees it`,
            fix: `express the ${keyword} inside properties, or in the description`,
            source: NORMALIZER,
          });
        }
      }
      for (const node of inputSchemaNodes(tool)) {
        const types = Array.isArray(node.schema.type) ? node.schema.type : [node.schema.type];
        if (types.includes('array') && !isSchemaObject(node.schema.items) && !Array.isArray(node.schema.items)) {
          add({
            rule: 'array-without-items',
            severity: 'error',
            path: node.path,
            message: 'an array schema without items: Copilot refuses the tool ("tool parameters array type must have items")',
            fix: 'give the array an items schema',
            source: NORMALIZER,
          });
        }
      }
    }
  }
  for (const clash of sameNames(servers, vscodeToolId)) {
    findings.push(
      finding(target, {
        rule: 'name-collision',
        severity: 'error',
        server: clash.lost.server,
        tool: clash.lost.tool,
        path: '$.name',
        message: `reaches VS Code as '${clash.name}', the id of ${clash.kept.server}'s ${clash.kept.tool} too: one of them cannot be called`,
        fix: 'shorten the names so they differ within the first 64 characters of the id',
        source: VSCODE_TYPES,
      }),
    );
  }
  return findings;
}

export const vscode: LintTarget = { name: 'vscode', version: 1, title: 'VS Code with GitHub Copilot Chat', format: 'openai', check };
