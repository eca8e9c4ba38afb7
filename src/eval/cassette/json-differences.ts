/** One place where two JSON values differ: its path (`messages[2].content`) and the value on each side (undefined: absent). */
export interface JsonDifference {
  path: string;
  actual: unknown;
  recorded: unknown;
}

/**
 * Where `actual` differs from `recorded`, in document order (object keys sorted, array items by
 * index), at most `limit` of them: enough to pick the closest recording (fewest differences) and
 * name the first place it differs, without walking two large conversations to the end.
 */
export function jsonDifferences(actual: unknown, recorded: unknown, limit = Number.POSITIVE_INFINITY): JsonDifference[] {
  const found: JsonDifference[] = [];
  collect(actual, recorded, '', found, limit);
  return found;
}

function collect(actual: unknown, recorded: unknown, path: string, found: JsonDifference[], limit: number): void {
  if (found.length >= limit) return;
  if (Array.isArray(actual) && Array.isArray(recorded)) {
    const length = Math.max(actual.length, recorded.length);
    for (let index = 0; index < length && found.length < limit; index++) collect(actual[index], recorded[index], `${path}[${index}]`, found, limit);
    return;
  }
  if (isObject(actual) && isObject(recorded)) {
    const keys = [...new Set([...Object.keys(actual), ...Object.keys(recorded)])].sort(compareText);
    for (const key of keys) {
      if (found.length >= limit) return;
      collect(Object.hasOwn(actual, key) ? actual[key] : undefined, Object.hasOwn(recorded, key) ? recorded[key] : undefined, joinKey(path, key), found, limit);
    }
    return;
  }
  if (!sameScalar(actual, recorded)) found.push({ path: path === '' ? '(the whole value)' : path, actual, recorded });
}

/** `a.b` for a plain key, `a["x y"]` for one that would not read as a path segment. */
function joinKey(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

function sameScalar(actual: unknown, recorded: unknown): boolean {
  // An array against an object (or a scalar) differs as a whole; two scalars differ by value.
  if (typeof actual === 'object' && actual !== null) return false;
  if (typeof recorded === 'object' && recorded !== null) return false;
  return Object.is(actual, recorded);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
