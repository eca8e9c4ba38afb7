import type { ApiItem } from '../snapshot/snapshot-types.js';
import type { Finding, ServerTools } from './lint-types.js';
import { isSchemaObject, member, walkSchema } from './schema-walk.js';

/**
 * The rules that hold whatever the target (`mcp/…`): what a model needs to choose and call a tool
 * well, and what a tool definition must not carry. Names that collide across servers depend on how
 * each host names tools, so they are the targets' rules (target-names.ts).
 */

const TOOL_SPEC = 'https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool';
const ANNOTATIONS_SPEC = 'https://modelcontextprotocol.io/specification/2025-06-18/schema#toolannotations';
// "Trojan Source" (CVE-2021-42574) and the tool-poisoning write-up that found instructions hidden in
// tool descriptions, which the user never sees and the model follows.
const TROJAN_SOURCE = 'https://trojansource.codes/';
const TOOL_POISONING = 'https://invariantlabs.ai/blog/mcp-security-notification-tool-poisoning-attacks';

/** Bidi embeddings, overrides, isolates and marks: they reorder what a person reads. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;
/** Characters that show nothing: zero-width spaces and joiners, word joiner, invisible operators, BOM, soft hyphen, tag characters. */
const INVISIBLE = /[\u200b-\u200d\u2060-\u2064\ufeff\u00ad\u180e]|[\u{e0000}-\u{e007f}]/u;

/**
 * Text a description aims at the model rather than describing the tool: the shapes found in
 * poisoned tool descriptions (hidden tags, "ignore previous instructions", "do not tell the user",
 * reading the user's secrets). Kept narrow on purpose: a description that explains how to use its
 * own tool ("call this before editing") is what a description is for.
 */
const INSTRUCTION_PATTERNS: Array<{ pattern: RegExp; what: string }> = [
  { pattern: /<\/?\s*(important|system|instructions?|secret|hidden)\s*>/i, what: 'a hidden-instruction tag' },
  {
    pattern: /\b(ignore|disregard|forget)\s+(all\s+|any\s+)?(the\s+)?(previous|prior|above|earlier|other)\s+(instructions|rules|prompts?|directions)\b/i,
    what: 'an instruction to ignore other instructions',
  },
  { pattern: /\b(do\s+not|don'?t|never)\s+(tell|mention|inform|notify|reveal\s+to|show)\s+(this\s+to\s+)?the\s+user\b/i, what: 'an instruction to keep something from the user' },
  { pattern: /\bwithout\s+(telling|informing|asking|notifying)\s+the\s+user\b/i, what: 'an instruction to act without the user knowing' },
];

/** Verbs that change something: a host asks before such a call unless readOnlyHint says otherwise. */
const WRITE_VERBS = new Set(
  'create delete remove write update set put post patch insert drop kill send move rename edit upload publish merge push commit deploy destroy truncate purge revoke execute exec run install uninstall add append modify replace overwrite clear reset close cancel archive transfer pay charge'.split(
    ' ',
  ),
);

/** `createIssue`, `create_issue`, `create-issue` → create, issue. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.toLowerCase())
    .filter(Boolean);
}

export function mcpRules(servers: ServerTools[]): Finding[] {
  const findings: Finding[] = [];
  for (const { server, tools } of servers) {
    for (const tool of tools) findings.push(...toolFindings(server, tool));
  }
  return findings;
}

function toolFindings(server: string, tool: ApiItem): Finding[] {
  const name = String(tool.name);
  const findings: Finding[] = [];
  const add = (finding: Omit<Finding, 'target' | 'server' | 'tool'>) => findings.push({ ...finding, target: 'mcp', server, tool: name });
  const description = typeof tool.description === 'string' ? tool.description : '';

  if (description.trim() === '') {
    add({
      rule: 'mcp/no-description',
      severity: 'warning',
      path: '$.description',
      message: 'no description: the model chooses tools by their descriptions',
      fix: 'describe what the tool does, when to use it and what it returns',
      source: TOOL_SPEC,
    });
  }
  for (const { text, path } of texts(tool)) {
    if (BIDI.test(text)) {
      add({
        rule: 'mcp/bidi-text',
        severity: 'error',
        path,
        message: 'bidirectional control characters: what a person reads is not what the model receives',
        fix: 'remove the bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/F)',
        source: TROJAN_SOURCE,
      });
    }
    if (INVISIBLE.test(text)) {
      add({
        rule: 'mcp/invisible-text',
        severity: 'error',
        path,
        message: 'invisible characters (zero-width, tag or format characters): text the user cannot see reaches the model',
        fix: 'remove the invisible characters',
        source: TOOL_POISONING,
      });
    }
    const instruction = INSTRUCTION_PATTERNS.find(({ pattern }) => pattern.test(text));
    if (instruction) {
      const quoted = text.match(instruction.pattern)![0];
      add({
        rule: 'mcp/instruction-text',
        severity: 'warning',
        path,
        message: `${instruction.what} ("${quoted}"): text aimed at the model, not a description of the tool`,
        fix: 'describe the tool; keep instructions to the model out of tool metadata',
        source: TOOL_POISONING,
      });
    }
  }
  const schema = tool.inputSchema;
  if (isSchemaObject(schema) && isSchemaObject(schema.properties)) {
    for (const [parameter, property] of Object.entries(schema.properties)) {
      if (isSchemaObject(property) && !describes(property)) {
        add({
          rule: 'mcp/undocumented-parameter',
          severity: 'note',
          path: `$.inputSchema.properties${member(parameter)}`,
          message: `parameter '${parameter}' has no description`,
          fix: `give '${parameter}' a description (its meaning, units, format)`,
          source: TOOL_SPEC,
        });
      }
    }
  }
  const annotations = isSchemaObject(tool.annotations) ? tool.annotations : {};
  if (nameWords(name).some((word) => WRITE_VERBS.has(word)) && annotations.readOnlyHint === undefined && annotations.destructiveHint === undefined) {
    add({
      rule: 'mcp/write-without-hints',
      severity: 'note',
      path: '$.annotations',
      message: 'the name reads as a change, and neither readOnlyHint nor destructiveHint says whether it is one',
      fix: 'set annotations.readOnlyHint (true for a read) or destructiveHint (false for an additive change)',
      source: ANNOTATIONS_SPEC,
    });
  }
  return findings;
}

/** A property is described by its description, or by a title, or by being a $ref to a described definition. */
function describes(property: Record<string, unknown>): boolean {
  return [property.description, property.title].some((value) => typeof value === 'string' && value.trim() !== '') || typeof property.$ref === 'string';
}

/** Every text of a tool that reaches the model: name, title, description, and every description and title in its schemas. */
function* texts(tool: ApiItem): Generator<{ text: string; path: string }> {
  for (const key of ['name', 'title', 'description']) if (typeof tool[key] === 'string') yield { text: tool[key], path: `$.${key}` };
  for (const key of ['inputSchema', 'outputSchema']) {
    for (const node of walkSchema(tool[key], `$.${key}`)) {
      for (const field of ['description', 'title']) if (typeof node.schema[field] === 'string') yield { text: node.schema[field], path: `${node.path}.${field}` };
      if (node.via === 'properties' && /[^\x20-\x7e]/.test(node.path)) yield { text: node.path, path: node.path };
      if (Array.isArray(node.schema.enum)) for (const [index, value] of node.schema.enum.entries()) if (typeof value === 'string') yield { text: value, path: `${node.path}.enum[${index}]` };
    }
  }
}
