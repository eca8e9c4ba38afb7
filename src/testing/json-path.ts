import { compile, type JSONPathQuery } from 'json-p3';

/**
 * JSONPath as RFC 9535 defines it, through json-p3 (no dependencies, implements the RFC and passes
 * its compliance test suite): a test file's `path:`, `save:` and `ignore:` keys, compiled once each.
 */
const compiled = new Map<string, JSONPathQuery>();

/** The compiled query, or the parser's own words when the path does not parse. */
export function compileJsonPath(path: string): { query?: JSONPathQuery; problem?: string } {
  const known = compiled.get(path);
  if (known) return { query: known };
  try {
    const query = compile(path);
    compiled.set(path, query);
    return { query };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** The nodes `path` selects in `value`: each value and where it is (keys and indexes from the root). */
export function selectNodes(path: string, value: unknown): Array<{ value: unknown; location: Array<string | number>; path: string }> {
  const { query, problem } = compileJsonPath(path);
  if (!query) throw new Error(`JSONPath ${path}: ${problem}`);
  return query.query(value as Parameters<JSONPathQuery['query']>[0]).nodes.map((node) => ({ value: node.value, location: node.location, path: node.path }));
}
