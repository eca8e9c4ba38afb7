import { GEMINI_SCHEMA_FIELDS } from './targets/gemini.js';
import { isSchemaObject } from './schema-walk.js';

/**
 * `mcp lint --fix --target T`: an inputSchema as the target needs it, so an author sees the exact
 * transformation (the server is not changed). gemini: local `$ref`s inlined, type arrays as one type
 * plus `nullable`, an enum as a string-typed enum of strings, keywords outside its subset removed; openai: strict mode (every object closed,
 * every property required, optional ones nullable); codex: only the keywords Codex keeps, a null root
 * as an object without properties; anthropic:
 * a root that is an object. Targets that take the schema as it is get it back unchanged.
 */
export type FixableTarget = 'gemini' | 'openai' | 'codex' | 'anthropic';

const MAX_DEPTH = 64;
const CODEX_KEPT = new Set(['type', 'description', 'enum', 'items', 'properties', 'required', 'additionalProperties', 'anyOf']);

/**
 * Inlined references are copies, so a schema whose definitions each use the next one twice doubles
 * at every level, and a counted number of references does not bound the output: 10,000 copies of a
 * 10 KB definition is 100 MB per tool (a 205 KB snapshot ran out of a 3 GB heap). So the copies are
 * budgeted by their size, for the whole run: past MAX_INLINED_CHARS of inlined JSON, the rest of the
 * references stay described objects, and the caller says so.
 */
export const MAX_INLINED_CHARS = 8_000_000;

/** What inlining may still copy, shared by every tool of one `--fix` run. */
export interface FixBudget {
  charsLeft: number;
  /** Set once a reference was left out for the budget. */
  exhausted: boolean;
}

export function newFixBudget(chars = MAX_INLINED_CHARS): FixBudget {
  return { charsLeft: chars, exhausted: false };
}

export function fixSchema(schema: unknown, target: string, budget: FixBudget = newFixBudget()): Record<string, unknown> {
  const root = isSchemaObject(schema) ? schema : { type: 'object', properties: {} };
  const inlining: Inlining = { root, budget, sizes: new Map() };
  switch (target) {
    case 'gemini':
      return rewrite(inline(root, inlining), (node) => geminiNode(node)) as Record<string, unknown>;
    case 'codex': {
      const kept = rewrite(inline(root, inlining), (node) => Object.fromEntries(Object.entries(node).filter(([key]) => CODEX_KEPT.has(key)))) as Record<string, unknown>;
      // Codex refuses a root of type null (targets/codex.ts, null-root): a tool without arguments is an object without properties.
      return kept.type === 'null' ? { type: 'object', properties: {}, ...(typeof kept.description === 'string' ? { description: kept.description } : {}) } : kept;
    }
    case 'openai':
      return rewrite(root, strictNode) as Record<string, unknown>;
    case 'anthropic':
      return root.type === 'object'
        ? root
        : { type: 'object', properties: isSchemaObject(root.properties) ? root.properties : {}, ...(Array.isArray(root.required) ? { required: root.required } : {}) };
    default:
      return root;
  }
}

interface Inlining {
  root: Record<string, unknown>;
  budget: FixBudget;
  /** Each reference's own JSON size (its target as written), measured once. */
  sizes: Map<string, number>;
}

/** Local `#/$defs/x` and `#/definitions/x` references replaced by what they name; a cycle ends in a described object. */
function inline(node: unknown, inlining: Inlining, seen: string[] = [], depth = 0): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(item, inlining, seen, depth + 1));
  if (!isSchemaObject(node) || depth > MAX_DEPTH) return node;
  if (typeof node.$ref === 'string') {
    const { $ref, ...siblings } = node;
    const target = resolveLocal($ref, inlining.root);
    if (target === undefined || seen.includes($ref)) return { type: 'object', description: `${seen.includes($ref) ? 'recursive' : 'unresolved'} reference ${$ref}`, ...siblings };
    // Charged before the copy is made: what its target adds as written (references inside it are charged as they are inlined).
    const size = sizeOf($ref, target, inlining.sizes);
    if (size > inlining.budget.charsLeft) {
      inlining.budget.exhausted = true;
      return { type: 'object', description: `reference ${$ref} (not inlined: the inlined schemas pass ${MAX_INLINED_CHARS.toLocaleString('en-US')} characters)`, ...siblings };
    }
    inlining.budget.charsLeft -= size;
    return inline({ ...target, ...siblings }, inlining, [...seen, $ref], depth + 1);
  }
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === '$defs' || key === 'definitions') && depth === 0) continue;
    copy[key] =
      key === 'properties' && isSchemaObject(value)
        ? Object.fromEntries(Object.entries(value).map(([name, child]) => [name, inline(child, inlining, seen, depth + 1)]))
        : inline(value, inlining, seen, depth + 1);
  }
  return copy;
}

function sizeOf(ref: string, target: unknown, sizes: Map<string, number>): number {
  let size = sizes.get(ref);
  if (size === undefined) {
    try {
      size = JSON.stringify(target).length;
    } catch {
      size = Infinity; // too deep to measure is too big to copy
    }
    sizes.set(ref, size);
  }
  return size;
}

function resolveLocal(ref: string, root: Record<string, unknown>): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined; // a malformed %-escape names nothing
    }
    if (!isSchemaObject(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** Applies `change` to every schema node, children first, walking the same keywords as walkSchema. */
function rewrite(node: unknown, change: (node: Record<string, unknown>) => Record<string, unknown>, depth = 0): unknown {
  if (!isSchemaObject(node) || depth > MAX_DEPTH) return node;
  const copy: Record<string, unknown> = { ...node };
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions']) {
    if (isSchemaObject(copy[key])) copy[key] = Object.fromEntries(Object.entries(copy[key]).map(([name, child]) => [name, rewrite(child, change, depth + 1)]));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).map((child) => rewrite(child, change, depth + 1));
  for (const key of ['items', 'additionalProperties', 'not']) if (isSchemaObject(copy[key])) copy[key] = rewrite(copy[key], change, depth + 1);
  return change(copy);
}

function geminiNode(node: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...node };
  if ('const' in result && !('enum' in result)) result.enum = [result.const];
  if (Array.isArray(result.oneOf) && !('anyOf' in result)) result.anyOf = result.oneOf;
  if (Array.isArray(result.enum)) {
    // Gemini takes enum only as strings on a string-typed schema (targets/gemini.ts, enum-values):
    // the values spelled as strings, a null among them (or in a type array) said by nullable.
    if (result.enum.includes(null) || (Array.isArray(result.type) && result.type.includes('null'))) result.nullable = true;
    result.enum = result.enum.filter((value) => value !== null).map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
    if (result.type !== 'string') {
      result.type = 'string';
      delete result.format; // a number's or a date's format says nothing about the string it now is
      if (result.default !== undefined && result.default !== null && typeof result.default !== 'string') result.default = JSON.stringify(result.default);
    }
  } else if (Array.isArray(result.type)) {
    const types = result.type.filter((type) => type !== 'null');
    if (types.length < result.type.length) result.nullable = true;
    if (types.length === 1) result.type = types[0];
    else {
      delete result.type;
      result.anyOf = types.map((type) => ({ type }));
    }
  }
  return Object.fromEntries(Object.entries(result).filter(([key]) => GEMINI_SCHEMA_FIELDS.has(key)));
}

function strictNode(node: Record<string, unknown>): Record<string, unknown> {
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (!types.includes('object') && !isSchemaObject(node.properties)) return node;
  const properties = isSchemaObject(node.properties) ? node.properties : {};
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const closed: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) closed[name] = required.has(name) ? property : nullable(property);
  return { ...node, properties: closed, required: Object.keys(properties), additionalProperties: false };
}

/** An optional property made required-but-nullable, as strict mode spells optional. */
function nullable(property: unknown): unknown {
  if (!isSchemaObject(property)) return property;
  if (typeof property.type === 'string') return property.type === 'null' ? property : { ...property, type: [property.type, 'null'] };
  if (Array.isArray(property.type)) return property.type.includes('null') ? property : { ...property, type: [...property.type, 'null'] };
  return { anyOf: [property, { type: 'null' }] };
}
