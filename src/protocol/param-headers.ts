/**
 * SEP-2243 (2026-07-28, Streamable HTTP § Custom Headers from Tool Parameters): a tool's inputSchema
 * may mark a property with `x-mcp-header: NAME`, and a client then mirrors that argument into an
 * `Mcp-Param-NAME` header (the v2 client does the mirroring). A Streamable HTTP client MUST leave out
 * a tool whose annotations break the rules below, and SHOULD say which tool and why; this is the check.
 */

export const PARAM_HEADER_KEY = 'x-mcp-header';

/** Where the rules are, for findings (they are 2026-07-28 rules, not the 2025-11-25 tools text). */
export const PARAM_HEADERS_SPEC = 'MCP 2026-07-28 basic/transports § Custom Headers from Tool Parameters';

/** RFC 9110 §5.1 token (`1*tchar`): no space, control character, non-ASCII or delimiter such as ':'. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The types an annotated property may have: primitives, `number` excluded by the spec. */
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/**
 * Keywords whose subschemas are not "statically reachable through `properties` keys only": an
 * annotation under any of them makes the tool invalid. Kept in step with the v2 client's own scan,
 * so every tool toolrun keeps is one the client mirrors.
 */
const UNREACHABLE_KEYWORDS = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
];
/** Of those, the ones whose value maps names to subschemas. */
const NAMED_SUBSCHEMA_KEYWORDS = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/**
 * The first way the inputSchema's `x-mcp-header` annotations break the spec's rules, as one line
 * naming the property (`property 'nil': x-mcp-header is only allowed on a string, integer or boolean
 * property (this one is null)`), or undefined when they are valid or absent.
 */
export function paramHeaderProblem(inputSchema: unknown): string | undefined {
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    const schema = node as Record<string, unknown>;
    if (Object.hasOwn(schema, PARAM_HEADER_KEY)) {
      const where = path.length === 0 ? 'the schema root' : `property '${path.join('.')}'`;
      if (!reachable || path.length === 0)
        return `${where}: x-mcp-header is only allowed on a property reached through "properties" alone (not under items, $defs, anyOf/oneOf/allOf/not, if/then/else…)`;
      const name = schema[PARAM_HEADER_KEY];
      if (typeof name !== 'string' || name.length === 0) return `${where}: x-mcp-header is empty (it must name the header)`;
      if (!HTTP_TOKEN.test(name)) return `${where}: x-mcp-header ${JSON.stringify(name)} is not a valid HTTP header name (no spaces, colons, control or non-ASCII characters)`;
      const type = schema.type;
      if (typeof type !== 'string' || !HEADER_TYPES.has(type))
        return `${where}: x-mcp-header is only allowed on a string, integer or boolean property (this one is ${typeof type === 'string' ? type : JSON.stringify(type ?? 'untyped')})`;
      const earlier = seen.get(name.toLowerCase());
      if (earlier !== undefined) return `${where}: x-mcp-header ${JSON.stringify(name)} repeats ${JSON.stringify(earlier)} (header names must be unique, ignoring case)`;
      seen.set(name.toLowerCase(), name);
    }
    const properties = schema.properties;
    if (properties !== null && typeof properties === 'object') {
      for (const [key, child] of Object.entries(properties)) {
        const problem = visit(child, [...path, key], reachable);
        if (problem) return problem;
      }
    }
    for (const keyword of UNREACHABLE_KEYWORDS) {
      const sub = schema[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub) ? sub : NAMED_SUBSCHEMA_KEYWORDS.has(keyword) && sub !== null && typeof sub === 'object' ? Object.values(sub) : [sub];
      for (const branch of branches) {
        const problem = visit(branch, [...path, keyword], false);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  return visit(inputSchema, [], true);
}
