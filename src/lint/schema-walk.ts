/**
 * Every subschema of a JSON Schema with its JSONPath, parent first. `$ref`s are not followed (each
 * definition is walked where it sits, under `$defs`), so a recursive schema is walked once; nesting
 * deeper than MAX_DEPTH is not walked (a hostile snapshot must not make the walk endless).
 */
export interface SchemaNode {
  schema: Record<string, unknown>;
  path: string;
  depth: number;
  /** The keyword that led here (`properties`, `items`, `anyOf`…); undefined at the root. */
  via?: string;
}

const MAX_DEPTH = 64;

const MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const LIST_KEYWORDS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const ONE_KEYWORDS = new Set(['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems']);

/**
 * The nodes, once per schema and path: every target walks every tool's inputSchema, so the walk is
 * kept (an array built with an explicit stack: 1,000 tools × 8 targets through recursive generators
 * cost more than all the rules together).
 */
const walked = new WeakMap<object, Map<string, SchemaNode[]>>();

export function walkSchema(schema: unknown, path: string): SchemaNode[] {
  if (!isSchemaObject(schema)) return [];
  let byPath = walked.get(schema);
  if (!byPath) walked.set(schema, (byPath = new Map()));
  let nodes = byPath.get(path);
  if (!nodes) byPath.set(path, (nodes = collect(schema, path)));
  return nodes;
}

function collect(root: Record<string, unknown>, rootPath: string): SchemaNode[] {
  const nodes: SchemaNode[] = [];
  // Children pushed in reverse, so they come out parent first, in keyword order.
  const stack: SchemaNode[] = [{ schema: root, path: rootPath, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    nodes.push(node);
    if (node.depth >= MAX_DEPTH) continue;
    const children: SchemaNode[] = [];
    const add = (child: unknown, path: string, via: string) => {
      if (isSchemaObject(child)) children.push({ schema: child, path, depth: node.depth + 1, via });
    };
    const { schema, path } = node;
    for (const keyword of Object.keys(schema)) {
      const value = schema[keyword];
      if (MAP_KEYWORDS.has(keyword)) {
        if (isSchemaObject(value)) for (const [key, child] of Object.entries(value)) add(child, `${path}${member(keyword)}${member(key)}`, keyword);
      } else if (LIST_KEYWORDS.has(keyword) || (ONE_KEYWORDS.has(keyword) && Array.isArray(value))) {
        if (Array.isArray(value)) for (const [index, child] of value.entries()) add(child, `${path}${member(keyword)}[${index}]`, keyword);
      } else if (ONE_KEYWORDS.has(keyword)) add(value, `${path}${member(keyword)}`, keyword);
    }
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
  }
  return nodes;
}

/**
 * JSON nesting past which lint checks a tool no further (nor --fix fixes it): CPython's json module,
 * which Python MCP clients and SDKs parse with, recurses once per level (Modules/_json.c,
 * Py_EnterRecursiveCall) under a default recursion limit of 1,000 (sys.getrecursionlimit), so such a
 * tool fails there too; and draft-07 validation and JSON.stringify here recurse once per level.
 */
export const MAX_JSON_DEPTH = 1000;

/** Whether a JSON value nests objects and arrays more than `limit` levels deep: walked with a stack, not recursion. */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    if (depth >= limit) return true;
    seen.add(current);
    for (const child of Object.values(current)) if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

export function isSchemaObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `.name` for a plain name, `['a b']` otherwise (RFC 9535 JSONPath's normalized member spelling). */
export function member(key: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return `.${key}`;
  return `['${key.replace(/[\\']/g, (character) => `\\${character}`)}']`;
}
