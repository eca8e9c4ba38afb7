import type { Finding, LintReport, LintTarget, ServerTools, Severity } from './lint-types.js';
import { mcpRules } from './mcp-rules.js';
import { deeperThan, MAX_JSON_DEPTH } from './schema-walk.js';
import type { CountTokens } from './token-counter.js';
import { countToolTokens } from './token-report.js';

export interface LintOptions {
  targets: LintTarget[];
  /** Fail (an error finding) past this many tokens for the whole set. */
  maxTokens?: number;
  maxTools?: number;
  /** Absent: no token count (the tokenizer is not loaded). */
  countTokens?: CountTokens;
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, note: 2 };
const MCP_SPEC_TOOLS = 'https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool';
const BUDGET_SOURCE = 'https://github.com/anthropics/claude-code/issues/12241';

/** The findings of every target, the rules of every target (`mcp/…`), the token count and the budgets. */
export async function lintServers(servers: ServerTools[], options: LintOptions): Promise<LintReport> {
  const all = servers;
  const findings: Finding[] = [...mcpRules(servers), ...sameNameAcrossServers(servers)];
  // A tool nested deeper than MAX_JSON_DEPTH is a finding, and the targets and the token count do
  // not see it: draft-07 validation (vscode) and JSON.stringify (tokens) recurse once per level, and
  // a snapshot nested 50,000 deep ended lint as "internal error: Maximum call stack size exceeded".
  const shallow = servers.map((entry) => ({ ...entry, tools: entry.tools.filter((tool) => !deeperThan(tool, MAX_JSON_DEPTH)) }));
  for (const [index, { server, tools }] of servers.entries()) {
    for (const tool of tools) if (!shallow[index]!.tools.includes(tool)) findings.push(tooDeep(server, tool));
  }
  servers = shallow;
  for (const target of options.targets) findings.push(...target.check(servers));
  // OpenAI's count is exact; another format's is an estimate, used only when no target takes OpenAI's.
  const format = options.targets.some((target) => target.format === 'openai') || options.targets.length === 0 ? 'openai' : options.targets[0]!.format;
  const tokens = options.countTokens ? await countToolTokens(servers, format, options.countTokens) : undefined;
  const total = all.reduce((sum, server) => sum + server.tools.length, 0);
  const whole = servers.length === 1 ? servers[0]!.server : '*';
  if (tokens && options.maxTokens !== undefined && tokens.total > options.maxTokens) {
    const biggest = tokens.tools[0]!;
    findings.push({
      rule: 'budget/max-tokens',
      target: 'budget',
      severity: 'error',
      server: whole,
      path: '$',
      message: `${tokens.total} tokens of tool definitions, over the budget of ${options.maxTokens}; the biggest is ${biggest.tool}${servers.length > 1 ? ` (${biggest.server})` : ''}: ${biggest.tokens}, most of it ${biggest.costliest.part}: ${biggest.costliest.tokens}`,
      fix: 'shorten the biggest descriptions and schemas, or offer fewer tools',
      source: BUDGET_SOURCE,
    });
  }
  if (options.maxTools !== undefined && total > options.maxTools) {
    findings.push({
      rule: 'budget/max-tools',
      target: 'budget',
      severity: 'error',
      server: whole,
      path: '$',
      message: `${total} tools, over the budget of ${options.maxTools}`,
      fix: 'offer fewer tools',
      source: BUDGET_SOURCE,
    });
  }
  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  return {
    targets: options.targets.map(({ name, version, title }) => ({ name, version, title })),
    servers: all.map(({ server, tools }) => ({ server, tools: tools.length })),
    findings,
    ...(tokens ? { tokens } : {}),
    errors: findings.filter((finding) => finding.severity === 'error').length,
  };
}

const PYTHON_RECURSION_LIMIT = 'https://docs.python.org/3/library/sys.html#sys.getrecursionlimit';

function tooDeep(server: string, tool: ServerTools['tools'][number]): Finding {
  return {
    rule: 'mcp/too-deep',
    target: 'mcp',
    severity: 'error',
    server,
    tool: String(tool.name),
    path: '$',
    message: `the tool is nested more than ${MAX_JSON_DEPTH.toLocaleString('en-US')} levels deep: a JSON parser that recurses (Python's json, under its default recursion limit of 1,000) refuses it, and lint checks it no further`,
    fix: 'flatten the schema (a $ref to a definition instead of nesting it)',
    source: PYTHON_RECURSION_LIMIT,
  };
}

/**
 * Two servers offering the same tool name: a client that passes tools by their own names (the model
 * APIs take one function per name) keeps only one. Hosts that prefix names with the server's are
 * judged by their own tables.
 */
function sameNameAcrossServers(servers: ServerTools[]): Finding[] {
  const owners = new Map<string, string>();
  const findings: Finding[] = [];
  for (const { server, tools } of servers) {
    for (const tool of tools) {
      const name = String(tool.name);
      const first = owners.get(name);
      if (first === undefined) owners.set(name, server);
      else if (first !== server) {
        findings.push({
          rule: 'mcp/name-collision',
          target: 'mcp',
          severity: 'warning',
          server,
          tool: name,
          path: '$.name',
          message: `${first} has a tool '${name}' too: a client that does not prefix names with the server's keeps only one (usually ${first}'s, the first listed)`,
          fix: 'give the tool a name specific to the server',
          source: MCP_SPEC_TOOLS,
        });
      }
    }
  }
  return findings;
}
