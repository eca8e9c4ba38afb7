/** One place where a replayed response differs from the recorded one. */
export interface Difference {
  path: string;
  recorded: unknown;
  now: unknown;
}

/** An ISO 8601 timestamp: a value that differs run to run, which comparisons (and snapshots) leave out. */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Compares a response with the recorded one as `mcp replay` must (SPEC §11): ids and `jsonrpc` do not
 * count, nor what varies run to run — `_meta` anywhere, strings that are ISO timestamps — nor the
 * paths given with --ignore (`result.serverInfo.version`, `*` for any key or index).
 */
export function compareMessages(recorded: unknown, now: unknown, ignore: string[] = []): Difference[] {
  const differences: Difference[] = [];
  const ignored = ignore.map((path) => path.split('.'));
  const isIgnored = (path: string[]) => ignored.some((pattern) => pattern.length === path.length && pattern.every((part, index) => part === '*' || part === path[index]));
  const walk = (a: unknown, b: unknown, path: string[]) => {
    if (isIgnored(path)) return;
    if (typeof a === 'string' && typeof b === 'string' && ISO_TIME.test(a) && ISO_TIME.test(b)) return;
    if (isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (key === '_meta' || (path.length === 0 && (key === 'id' || key === 'jsonrpc'))) continue;
        walk(a[key], b[key], [...path, key]);
      }
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let index = 0; index < Math.max(a.length, b.length); index++) walk(a[index], b[index], [...path, String(index)]);
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) differences.push({ path: formatPath(path), recorded: a, now: b });
  };
  walk(recorded, now, []);
  return differences;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** ["result", "content", "0", "text"] → `result.content[0].text`. */
function formatPath(path: string[]): string {
  return path.reduce((text, part) => (/^\d+$/.test(part) ? `${text}[${part}]` : text ? `${text}.${part}` : part), '') || '(the whole message)';
}
