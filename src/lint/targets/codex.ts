import { createHash } from 'node:crypto';
import type { ApiItem } from '../../snapshot/snapshot-types.js';
import type { Finding, LintTarget, ServerTools } from '../lint-types.js';
import { allTools, findingsOfTool, inputSchemaNodes, rootSchema, toolName } from '../rule-helpers.js';
import { member } from '../schema-walk.js';

/*
 * OpenAI Codex CLI (openai/codex, codex-rs). Sources, read at the stored commits named:
 * - codex-mcp/src/tools.rs @9b05dc91 and mcp/mod.rs @00b17c26: MCP tools reach the model as
 *   `mcp__<server>__<tool>`, at most 64 bytes (`MAX_TOOL_NAME_LENGTH`); a longer one is cut and given
 *   `_` and 12 hex digits of a SHA-1; characters other than [A-Za-z0-9_] become `_`
 *   (`sanitize_responses_api_tool_name`).
 * - tools/src/json_schema.rs @34839759: the schema keeps type, description, enum, items,
 *   properties, required, additionalProperties and anyOf; every other keyword is dropped without a
 *   word (local `$ref`s are inlined first); its `parse_tool_input_schema` refuses a root
 *   `{type: "null"}` (`singleton_null_schema_error`), and tool_registry_plan.rs @107b75ae leaves a
 *   tool whose schema fails out.
 */
const CODEX_TOOLS = 'https://github.com/openai/codex/blob/9b05dc91/codex-rs/codex-mcp/src/tools.rs';
const CODEX_SCHEMA = 'https://github.com/openai/codex/blob/34839759/codex-rs/tools/src/json_schema.rs';

const MAX_NAME = 64;
const KEPT = new Set(['type', 'description', 'enum', 'items', 'properties', 'required', 'additionalProperties', 'anyOf']);
/**
 * Dropped keywords that constrain a value the model then does not know about: worth a note. Others
 * ($schema, title, default, $defs once inlined…) change nothing the model must respect.
 */
const MEANINGFUL = new Set([
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'oneOf',
  'allOf',
  'not',
  'const',
  'multipleOf',
  'uniqueItems',
  'prefixItems',
  'patternProperties',
]);

function sanitize(text: string): string {
  return text.replace(/[^A-Za-z0-9_]/g, '_') || '_';
}

/** The name Codex gives the model: `mcp__server__tool`, cut and hashed past 64. */
export function codexToolName(server: string, tool: ApiItem): string {
  const full = `mcp__${sanitize(server)}__${sanitize(toolName(tool))}`;
  if (full.length <= MAX_NAME) return full;
  const hash = createHash('sha1')
    .update(`${server}/${toolName(tool)}`)
    .digest('hex')
    .slice(0, 12);
  return `${full.slice(0, MAX_NAME - 13)}_${hash}`;
}

function check(servers: ServerTools[]): Finding[] {
  const target = 'codex';
  const findings: Finding[] = [];
  for (const { server, tool } of allTools(servers)) {
    const name = toolName(tool);
    const add = findingsOfTool(findings, target, server, name);
    const full = `mcp__${server}__${name}`;
    if (full.length > MAX_NAME) {
      add({
        rule: 'name-length',
        severity: 'warning',
        path: '$.name',
        message: `'${full}' is ${full.length} characters: Codex cuts it to ${MAX_NAME} with a hash, and the model sees '${codexToolName(server, tool)}'`,
        fix: `keep server and tool name within ${MAX_NAME - 7} characters together`,
        source: CODEX_TOOLS,
      });
    }
    const root = rootSchema(tool);
    if (root?.type === 'null') {
      add({
        rule: 'null-root',
        severity: 'error',
        path: '$.inputSchema.type',
        message: 'an inputSchema of type null: Codex refuses the tool and leaves it out',
        fix: 'make the inputSchema an object: {"type": "object", "properties": {}} for no arguments (--fix --target codex)',
        source: CODEX_SCHEMA,
      });
    }
    const dropped = new Map<string, string>();
    for (const node of inputSchemaNodes(tool)) {
      for (const keyword of Object.keys(node.schema)) {
        if (!KEPT.has(keyword) && MEANINGFUL.has(keyword) && !dropped.has(keyword)) dropped.set(keyword, `${node.path}${member(keyword)}`);
      }
    }
    if (dropped.size > 0) {
      const [path] = dropped.values();
      add({
        rule: 'dropped-keywords',
        severity: 'note',
        path: path!,
        message: `Codex drops ${[...dropped.keys()].join(', ')} before the model sees the schema`,
        fix: 'say the constraint in the description too, or check it in the tool and answer with a clear error',
        source: CODEX_SCHEMA,
      });
    }
  }
  return findings;
}

export const codex: LintTarget = { name: 'codex', version: 1, title: 'OpenAI Codex CLI', format: 'openai', check };
