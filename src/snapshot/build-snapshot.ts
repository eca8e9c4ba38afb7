import { SECTIONS, type ApiItem, type ApiSnapshot, type SectionName } from './snapshot-types.js';

export interface ListedApi {
  serverName: string;
  protocolVersion?: string;
  /** An absent list was not listed (a recording without its answer); an empty one was. */
  lists: Partial<Record<SectionName, unknown[]>>;
}

/**
 * The canonical form of what a server listed: items sorted by their key, every object's keys sorted,
 * volatile fields left out — `_meta` (servers put trace ids and timestamps there), a resource's
 * `size` and `annotations.lastModified` (they follow the content, not the API). Pagination cursors
 * never get here: the lists are the items of every page.
 */
export function buildSnapshot(listed: ListedApi): Omit<ApiSnapshot, SectionName> & Partial<Pick<ApiSnapshot, SectionName>> {
  const snapshot: Omit<ApiSnapshot, SectionName> & Partial<Pick<ApiSnapshot, SectionName>> = {
    toolrunSnapshot: 1,
    server: { name: listed.serverName },
    ...(listed.protocolVersion ? { protocolVersion: listed.protocolVersion } : {}),
  };
  for (const { list, key } of SECTIONS) {
    const items = listed.lists[list];
    if (!items) continue;
    const kept = items.filter((item): item is ApiItem => item !== null && typeof item === 'object' && !Array.isArray(item)).map((item) => canonicalItem(list, item));
    snapshot[list] = kept.sort((a, b) => compareText(String(a[key]), String(b[key])));
  }
  return sortKeysDeep(snapshot) as typeof snapshot;
}

/** The snapshot as `mcp snapshot` prints it: 2-space indented, a newline at the end. */
export function formatSnapshot(snapshot: ApiSnapshot): string {
  return `${JSON.stringify(snapshot, null, 2)}\n`;
}

function canonicalItem(list: SectionName, item: ApiItem): ApiItem {
  const { _meta: _ignored, ...rest } = item;
  if (list !== 'resources') return rest;
  const { size: _size, ...resource } = rest;
  const annotations = resource.annotations;
  if (annotations && typeof annotations === 'object' && !Array.isArray(annotations)) {
    const { lastModified: _lastModified, ...kept } = annotations as Record<string, unknown>;
    if (Object.keys(kept).length > 0) resource.annotations = kept;
    else delete resource.annotations;
  }
  return resource;
}

/** Code-unit order, the same on every machine (localeCompare depends on the locale). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every object's keys in code-unit order, arrays kept in their order: a snapshot's canonical form. */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(compareText)) {
    // A property named "__proto__" in a schema is data: defined, not assigned (assigning sets the prototype).
    Object.defineProperty(sorted, key, { value: sortKeysDeep((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  }
  return sorted;
}
