/** One difference between two APIs, classified (SPEC §16). */
export interface ApiChange {
  kind: 'added' | 'removed' | 'changed';
  /** What changed: the item itself, one of its arguments or output fields, or a field of it. */
  what: 'tool' | 'resource' | 'resourceTemplate' | 'prompt' | 'argument' | 'promptArgument' | 'outputField' | 'outputSchema' | 'inputSchema' | 'description' | 'field' | 'skill' | 'skillFile';
  /** JSON path of the change: `tools.search.inputSchema.properties.filter.properties.kind`. */
  path: string;
  /** Would a client written against the old API fail, or misread, against the new one? */
  breaking: boolean;
  before?: unknown;
  after?: unknown;
  /** One line: what changed and why it breaks clients or does not. */
  reason: string;
}

/** A path segment: plain when it is a simple name, else quoted (`resources["file:///a.txt"]`). */
export function pathSegment(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/** Same JSON value, object key order aside. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
