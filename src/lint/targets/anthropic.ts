import type { Finding, LintTarget, ServerTools } from '../lint-types.js';
import { allTools, findingsOfTool, rootSchema, toolName } from '../rule-helpers.js';
import { isSchemaObject, member } from '../schema-walk.js';

/*
 * The Claude API and Claude Code.
 * - Tool names: `^[a-zA-Z0-9_-]{1,128}$` (the API's own error: "String should match pattern
 *   '^[a-zA-Z0-9_-]{1,128}$'", modelcontextprotocol/modelcontextprotocol#1345; "at most 128
 *   characters", anthropics/claude-code#96152). It was 64 until mid-2025 and still is on Amazon
 *   Bedrock and for tool search's tool_reference (anthropics/claude-code#5132, #20643).
 * - Claude Code sends MCP tools as `mcp__<server>__<tool>`, so the prefixed name meets those limits.
 * - input_schema must be `type: "object"` (anthropics/anthropic-sdk-python src/anthropic/types/tool_param.py
 *   @009b0353, `InputSchemaTyped`).
 * - "MCP tool descriptions and server instructions are now capped at 2KB" (claude-code CHANGELOG.md,
 *   v2.1.84).
 * - Property keys of input_schema.properties `^[a-zA-Z0-9_.-]{1,64}$`: the API's own 400 refuses the
 *   whole request ("tools.14.custom.input_schema.properties: Property keys should match pattern
 *   '^[a-zA-Z0-9_.-]{1,64}$'", anthropics/claude-code#79418, reproduced by the maintainers; #4668;
 *   ComposioHQ/composio#3500 for `$`/`@` keys, #2330 for keys past 64).
 */
const NAME_PATTERN = 'https://github.com/modelcontextprotocol/modelcontextprotocol/issues/1345';
const NAME_64 = 'https://github.com/anthropics/claude-code/issues/20643';
const INPUT_SCHEMA = 'https://github.com/anthropics/anthropic-sdk-python/blob/009b0353/src/anthropic/types/tool_param.py';
const DESCRIPTION_CAP = 'https://github.com/anthropics/claude-code/blob/5cfc0a19/CHANGELOG.md';
const PROPERTY_KEYS = 'https://github.com/anthropics/claude-code/issues/79418';

const NAME = /^[a-zA-Z0-9_-]+$/;
const PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;

function check(servers: ServerTools[]): Finding[] {
  const target = 'anthropic';
  const findings: Finding[] = [];
  for (const { server, tool } of allTools(servers)) {
    const name = toolName(tool);
    const add = findingsOfTool(findings, target, server, name);
    const sent = `mcp__${server}__${name}`;
    if (!NAME.test(name)) {
      add({
        rule: 'name-pattern',
        severity: 'error',
        path: '$.name',
        message: 'Claude takes tool names of a-z, A-Z, 0-9, _ and - only ("String should match pattern")',
        fix: 'rename the tool with those characters',
        source: NAME_PATTERN,
      });
    }
    if (sent.length > 128) {
      add({
        rule: 'name-length',
        severity: 'error',
        path: '$.name',
        message: `Claude Code sends it as '${sent}', ${sent.length} characters; the Claude API takes at most 128`,
        fix: 'shorten the server or tool name',
        source: NAME_PATTERN,
      });
    } else if (sent.length > 64) {
      add({
        rule: 'name-length',
        severity: 'warning',
        path: '$.name',
        message: `Claude Code sends it as '${sent}', ${sent.length} characters: past the 64 of Amazon Bedrock and of tool search`,
        fix: 'keep server and tool name within 57 characters together',
        source: NAME_64,
      });
    }
    const schema = rootSchema(tool);
    if (schema && schema.type !== 'object') {
      add({
        rule: 'input-schema-type',
        severity: 'error',
        path: '$.inputSchema.type',
        message: `input_schema must be type "object"${schema.type === undefined ? '' : `, not ${JSON.stringify(schema.type)}`}`,
        fix: 'make the inputSchema an object with properties',
        source: INPUT_SCHEMA,
      });
    }
    if (schema && isSchemaObject(schema.properties)) {
      for (const key of Object.keys(schema.properties)) {
        if (!PROPERTY_KEY.test(key)) {
          add({
            rule: 'property-key',
            severity: 'error',
            path: `$.inputSchema.properties${member(key)}`,
            message: `property '${key}': the Claude API refuses the whole request ("Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'")`,
            fix: 'rename the property with a-z, A-Z, 0-9, _ . and - only, at most 64 characters (e.g. filter[id] as filter.id)',
            source: PROPERTY_KEYS,
          });
        }
      }
    }
    const description = typeof tool.description === 'string' ? tool.description : '';
    if (Buffer.byteLength(description) > 2048) {
      add({
        rule: 'description-length',
        severity: 'warning',
        path: '$.description',
        message: `the description is ${description.length} characters: Claude Code cuts tool descriptions at 2 KB`,
        fix: 'put the essentials in the first 2,000 characters, or shorten it',
        source: DESCRIPTION_CAP,
      });
    }
  }
  return findings;
}

export const anthropic: LintTarget = { name: 'anthropic', version: 2, title: 'Claude API and Claude Code', format: 'anthropic', check };
