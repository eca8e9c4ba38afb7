import type { ApiItem } from '../../snapshot/snapshot-types.js';
import type { Finding, LintTarget, ServerTools } from '../lint-types.js';
import { allTools, finding, findingsOfTool, inputSchemaNodes, rootSchema, sameNames, toolName } from '../rule-helpers.js';

/*
 * Gemini CLI (google-gemini/gemini-cli @5411f113, packages/core/src/tools/mcp-tool.ts and
 * mcp-client.ts). It sends an MCP inputSchema as it is, in `parametersJsonSchema` (JSON Schema, not
 * the OpenAPI subset of the `gemini` target). MCP tools are named `mcp_<server>_<tool>`, characters
 * outside [a-zA-Z0-9_.:-] made `_`; past 63 characters the name becomes its first 30, `...` and its
 * last 30 (`generateValidName`), and a second tool under a name already registered overwrites the
 * first (tool-registry.ts: "is already registered. Overwriting."). The API refuses a `$ref` it
 * cannot resolve ("reference to undefined schema", gemini-cli#13326) and a `$ref` beside keywords
 * other than description and default (gemini-cli#4758).
 */
const TOOL_NAMES = 'https://github.com/google-gemini/gemini-cli/blob/5411f113cafae26161b4969b0237b8e1e024e2c2/packages/core/src/tools/mcp-tool.ts#L590';
const OVERWRITE = 'https://github.com/google-gemini/gemini-cli/blob/5411f113cafae26161b4969b0237b8e1e024e2c2/packages/core/src/tools/tool-registry.ts#L275';
const UNRESOLVED_REF = 'https://github.com/google-gemini/gemini-cli/issues/13326';
const REF_SIBLINGS = 'https://github.com/google-gemini/gemini-cli/issues/4758';

const MAX_NAME = 63;

/** The name Gemini CLI registers an MCP tool under. */
export function geminiCliToolName(server: string, tool: ApiItem): string {
  let name = `mcp_${server}_${toolName(tool)}`.replace(/[^a-zA-Z0-9_\-.:]/g, '_');
  if (!/^[a-zA-Z_]/.test(name)) name = `_${name}`;
  return name.length > MAX_NAME ? `${name.slice(0, 30)}...${name.slice(-30)}` : name;
}

function check(servers: ServerTools[]): Finding[] {
  const target = 'gemini-cli';
  const findings: Finding[] = [];
  for (const { server, tool } of allTools(servers)) {
    const name = toolName(tool);
    const add = findingsOfTool(findings, target, server, name);
    const full = `mcp_${server}_${name}`;
    if (full.length > MAX_NAME) {
      add({
        rule: 'name-length',
        severity: 'warning',
        path: '$.name',
        message: `'${full}' is ${full.length} characters: Gemini CLI shortens it to '${geminiCliToolName(server, tool)}'`,
        fix: `keep server and tool name within ${MAX_NAME - 5} characters together`,
        source: TOOL_NAMES,
      });
    }
    const root = rootSchema(tool);
    if (!root) continue;
    for (const node of inputSchemaNodes(tool)) {
      const ref = node.schema.$ref;
      if (typeof ref !== 'string') continue;
      if (ref.startsWith('#') && !resolves(ref, root)) {
        add({
          rule: 'unresolved-ref',
          severity: 'error',
          path: `${node.path}['$ref']`,
          message: `$ref ${ref} names nothing in the schema: the Gemini API refuses the request ("reference to undefined schema")`,
          fix: 'define what the $ref names under $defs, or inline it',
          source: UNRESOLVED_REF,
        });
      }
      const siblings = Object.keys(node.schema).filter((key) => !key.startsWith('$') && key !== 'description' && key !== 'default');
      if (siblings.length > 0) {
        add({
          rule: 'ref-siblings',
          severity: 'error',
          path: `${node.path}['$ref']`,
          message: `$ref beside ${siblings.join(', ')}: the Gemini API takes only description and default next to a $ref`,
          fix: 'move the other keywords into the referenced definition, or wrap the $ref in allOf',
          source: REF_SIBLINGS,
        });
      }
    }
  }
  for (const clash of sameNames(servers, geminiCliToolName)) {
    findings.push(
      finding(target, {
        rule: 'name-collision',
        severity: 'error',
        server: clash.kept.server,
        tool: clash.kept.tool,
        path: '$.name',
        message: `registered as '${clash.name}', as ${clash.lost.server}'s ${clash.lost.tool} is: Gemini CLI keeps the later one, and this tool cannot be called`,
        fix: 'shorten the names so they differ within the first and last 30 characters',
        source: OVERWRITE,
      }),
    );
  }
  return findings;
}

function resolves(ref: string, root: Record<string, unknown>): boolean {
  if (ref === '#') return true;
  let node: unknown = root;
  for (const part of ref.replace(/^#\/?/, '').split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return false; // a malformed %-escape names nothing
    }
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

export const geminiCli: LintTarget = { name: 'gemini-cli', version: 1, title: 'Gemini CLI (sends JSON Schema as parametersJsonSchema)', format: 'gemini', check };
