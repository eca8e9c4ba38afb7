import type { ApiItem } from '../../snapshot/snapshot-types.js';
import type { Finding, LintTarget, ServerTools } from '../lint-types.js';
import { allTools, findingsOfTool, inputSchemaNodes, rootSchema, toolName, tooManyTools } from '../rule-helpers.js';
import { member } from '../schema-walk.js';

/*
 * OpenAI API function tools (Chat Completions and Responses).
 * - Name: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64"
 *   (openai/openai-python src/openai/types/shared/function_definition.py @e43b4224; the API answers
 *   `string_above_max_length`, LibreChat #7435).
 * - "A max of 128 functions are supported" (openai-python chat/completions.py @936b2f0d), still
 *   enforced with GPT-5: "Invalid 'tools': array too long. Expected … maximum length 128" (zed #42393).
 * - Descriptions past 1024 characters were refused ("Expected a string with maximum length 1024",
 *   getsentry/sentry-mcp#106); reported lifted in 2025 (llama_index PR #18784): a warning.
 * - Strict mode (Structured Outputs; the Responses API's default for function tools): the root an
 *   object and not anyOf, no allOf/not/if/then/else/dependent*, at most 10 levels and 1000 enum
 *   values. From the Structured Outputs guide, read here in copies only: marked unconfirmed. Its
 *   other rules (every object `additionalProperties: false`, every property required) are what a
 *   client converts an MCP schema to (openai-python's `_ensure_strict_json_schema` does), so they are
 *   not the server's to meet and not reported; `--fix --target openai` shows the converted schema.
 */
const FUNCTION_DEFINITION = 'https://github.com/openai/openai-python/blob/e43b4224/src/openai/types/shared/function_definition.py';
const TOOL_COUNT = 'https://github.com/zed-industries/zed/issues/42393';
const DESCRIPTION_LENGTH = 'https://github.com/getsentry/sentry-mcp/issues/106';
const STRICT_MODE = 'https://platform.openai.com/docs/guides/structured-outputs#supported-schemas';

const NAME = /^[a-zA-Z0-9_-]+$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
const STRICT_UNSUPPORTED = ['allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas'];
const STRICT_MAX_DEPTH = 10;
const STRICT_MAX_ENUM_VALUES = 1000;

function check(servers: ServerTools[]): Finding[] {
  const target = 'openai';
  const findings = tooManyTools(target, servers, {
    limit: 128,
    severity: 'error',
    consequence: 'the OpenAI API refuses a request with more than 128 tools ("array too long")',
    fix: 'offer at most 128 tools, or let the client choose (toolrun list --format openai --server …)',
    source: TOOL_COUNT,
  });
  for (const { server, tool } of allTools(servers)) {
    const name = toolName(tool);
    const add = findingsOfTool(findings, target, server, name);
    if (!NAME.test(name)) {
      add({
        rule: 'name-pattern',
        severity: 'error',
        path: '$.name',
        message: 'OpenAI takes function names of a-z, A-Z, 0-9, _ and - only ("string does not match pattern")',
        fix: 'rename the tool with those characters',
        source: FUNCTION_DEFINITION,
      });
    }
    if (name.length > MAX_NAME) {
      add({
        rule: 'name-length',
        severity: 'error',
        path: '$.name',
        message: `the name is ${name.length} characters; OpenAI takes at most ${MAX_NAME} ("string too long")`,
        fix: `shorten the name to ${MAX_NAME} characters or fewer`,
        source: FUNCTION_DEFINITION,
      });
    }
    const description = typeof tool.description === 'string' ? tool.description : '';
    if (description.length > MAX_DESCRIPTION) {
      add({
        rule: 'description-length',
        severity: 'warning',
        path: '$.description',
        message: `the description is ${description.length} characters; OpenAI refused descriptions past ${MAX_DESCRIPTION} (reported lifted in 2025)`,
        fix: `keep the description within ${MAX_DESCRIPTION} characters`,
        source: DESCRIPTION_LENGTH,
      });
    }
    const strict = strictProblems(tool);
    if (strict.length > 0) {
      add({
        rule: 'strict-schema',
        severity: 'note',
        path: strict[0]!.path,
        message: `not usable with strict: true (the Responses API's default): ${strict.map((problem) => problem.what).join('; ')}`,
        fix: 'express the schema without those (a client cannot convert them for strict mode)',
        source: STRICT_MODE,
        confirmed: false,
      });
    }
  }
  return findings;
}

/** What keeps a schema from strict mode, counted by kind, the first path of each. */
function strictProblems(tool: ApiItem): Array<{ what: string; path: string }> {
  const root = rootSchema(tool);
  if (!root) return [];
  const kinds = new Map<string, { count: number; path: string }>();
  const note = (what: string, path: string) => {
    const kind = kinds.get(what);
    if (kind) kind.count += 1;
    else kinds.set(what, { count: 1, path });
  };
  if (root.type !== 'object' || 'anyOf' in root) note('the root is not a plain object', '$.inputSchema');
  let enumValues = 0;
  for (const node of inputSchemaNodes(tool)) {
    for (const keyword of STRICT_UNSUPPORTED) if (keyword in node.schema) note(`${keyword} (not supported)`, `${node.path}${member(keyword)}`);
    if (node.depth > STRICT_MAX_DEPTH * 2) note(`deeper than ${STRICT_MAX_DEPTH} levels`, node.path);
    if (Array.isArray(node.schema.enum)) enumValues += node.schema.enum.length;
  }
  if (enumValues > STRICT_MAX_ENUM_VALUES) note(`${enumValues} enum values (at most ${STRICT_MAX_ENUM_VALUES})`, '$.inputSchema');
  return [...kinds].map(([what, { count, path }]) => ({ what: count > 1 && !/^\d/.test(what) ? `${count} ${what}` : what, path }));
}

export const openai: LintTarget = { name: 'openai', version: 1, title: 'OpenAI API (Chat Completions, Responses)', format: 'openai', check };
