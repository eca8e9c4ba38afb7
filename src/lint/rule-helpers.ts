import type { ApiItem } from '../snapshot/snapshot-types.js';
import type { Finding, ServerTools, Severity } from './lint-types.js';
import { isSchemaObject, walkSchema, type SchemaNode } from './schema-walk.js';

/**
 * What the target tables share: a finding's shape, the tool-count and name-length rules, and the
 * walk over every subschema of every tool's inputSchema. A rule whose source is users' reports
 * rather than the host's own documentation or code says so in its message (`unconfirmed`).
 */
export interface RuleSource {
  source: string;
  /** False when only users' reports back the rule (the host documents nothing): the message says so. */
  confirmed?: boolean;
}

export interface FindingInput extends RuleSource {
  rule: string;
  severity: Severity;
  server: string;
  tool?: string;
  path: string;
  message: string;
  fix: string;
}

export function finding(target: string, input: FindingInput): Finding {
  const { confirmed, ...rest } = input;
  return { ...rest, rule: `${target}/${input.rule}`, target, message: confirmed === false ? `${input.message} (reported by users; not in the host's documentation)` : input.message };
}

/** Adds findings of one target about one server's tool: the target, server and tool filled in. */
export function findingsOfTool(findings: Finding[], target: string, server: string, tool: string): (input: Omit<FindingInput, 'server' | 'tool'>) => void {
  return (input) => findings.push(finding(target, { ...input, server, tool }));
}

export function toolName(tool: ApiItem): string {
  return String(tool.name);
}

export function allTools(servers: ServerTools[]): Array<{ server: string; tool: ApiItem }> {
  return servers.flatMap(({ server, tools }) => tools.map((tool) => ({ server, tool })));
}

/** One finding for the whole set when it holds more tools than `limit`, naming the count and the servers. */
export function tooManyTools(target: string, servers: ServerTools[], rule: RuleSource & { limit: number; severity: Severity; consequence: string; fix: string }): Finding[] {
  const total = servers.reduce((sum, server) => sum + server.tools.length, 0);
  if (total <= rule.limit) return [];
  const named = servers.length === 1 ? servers[0]!.server : servers.map((server) => `${server.server} ${server.tools.length}`).join(', ');
  return [
    finding(target, {
      rule: 'max-tools',
      severity: rule.severity,
      server: servers.length === 1 ? servers[0]!.server : '*',
      path: '$',
      message: `${total} tools${servers.length > 1 ? ` (${named})` : ''}: ${rule.consequence} (limit ${rule.limit})`,
      fix: rule.fix,
      source: rule.source,
      confirmed: rule.confirmed,
    }),
  ];
}

/** Every subschema of the tool's inputSchema, with its path from the tool (`$.inputSchema…`). */
export function inputSchemaNodes(tool: ApiItem): SchemaNode[] {
  return walkSchema(tool.inputSchema, '$.inputSchema');
}

/** A `type` that is an array (`["string", "null"]`). */
export function typeArray(node: SchemaNode): boolean {
  return Array.isArray(node.schema.type);
}

export function hasKeyword(schema: Record<string, unknown>, keyword: string): boolean {
  return Object.prototype.hasOwnProperty.call(schema, keyword);
}

export function rootSchema(tool: ApiItem): Record<string, unknown> | undefined {
  return isSchemaObject(tool.inputSchema) ? tool.inputSchema : undefined;
}

/**
 * Two tools that reach the model under the same name: the host keeps `kept` (the first listed, in
 * the order the servers are given) and the other is shadowed. `sentName` is the name as the host
 * sends it (with its prefix, cut to its length).
 */
export function sameNames(
  servers: ServerTools[],
  sentName: (server: string, tool: ApiItem) => string,
): Array<{ name: string; kept: { server: string; tool: string }; lost: { server: string; tool: string } }> {
  const seen = new Map<string, { server: string; tool: string }>();
  const clashes: Array<{ name: string; kept: { server: string; tool: string }; lost: { server: string; tool: string } }> = [];
  for (const { server, tool } of allTools(servers)) {
    const name = sentName(server, tool);
    const first = seen.get(name);
    if (first) clashes.push({ name, kept: first, lost: { server, tool: toolName(tool) } });
    else seen.set(name, { server, tool: toolName(tool) });
  }
  return clashes;
}
