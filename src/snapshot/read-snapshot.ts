import { basename } from 'node:path';
import { ToolrunError } from '../errors.js';
import { SECTIONS, type ApiItem, type ApiSnapshot, type ApiSource } from './snapshot-types.js';

/** A file that is not a snapshot `mcp snapshot` wrote (or one edited out of shape): a usage error (exit 2). */
export class NotASnapshotError extends ToolrunError {
  constructor(message: string) {
    super('usage', message);
    this.name = 'NotASnapshotError';
  }
}

/**
 * A snapshot file's text, checked before anything compares it: a committed file may be edited by
 * hand or cut short, and a wrong shape is one line naming the field, never a TypeError deep in the diff.
 */
export function parseSnapshot(text: string): ApiSnapshot {
  const value = parseJson(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new NotASnapshotError('not a toolrun snapshot: a snapshot is a JSON object');
  return checkSnapshot(value as Record<string, unknown>);
}

/** What a file lists: a snapshot's lists, or only `tools` when it is a tools/list result (the others absent: not known). */
export type ApiListing = ApiSource['snapshot'];

/**
 * The API in a JSON file, for every command that reads one (`mcp lint --snapshot`, `mcp diff`,
 * `mcp mock`): toolrun's own snapshot, or a plain tools/list result — `{"tools": [...]}`, as the
 * Inspector CLI (`--method tools/list`) or a hand-written `curl | jq .result` prints it — or the
 * whole JSON-RPC response carrying one. A tools/list result names no server: `name` (the file's
 * name, say) stands in, and its tools keep the order the server listed them in.
 */
export function parseApiListing(text: string, name: string, note?: (message: string) => void): ApiListing {
  const listing = apiListingOf(parseJson(text), name, note);
  if (listing) return listing;
  throw new NotASnapshotError('neither a toolrun snapshot nor a tools/list result: it has no "toolrunSnapshot" field and no "tools" list (write a snapshot with: toolrun mcp snapshot SERVER > FILE)');
}

/**
 * parseApiListing on JSON already parsed; undefined when the value is neither a snapshot nor a
 * tools/list result (a toolrun config's `tools` have an `implementation`: they are not one). A result
 * with a `nextCursor` is one page of the server's tools: `note` is told, so a count is not taken for all.
 */
export function apiListingOf(value: unknown, name: string, note?: (message: string) => void): ApiListing | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  let object = value as Record<string, unknown>;
  if (object.toolrunSnapshot !== undefined) return checkSnapshot(object);
  if (object.jsonrpc === '2.0' && object.error !== undefined && object.result === undefined) {
    const error = object.error as { code?: unknown; message?: unknown } | null;
    const message = String(error?.message ?? '')
      .replace(/\s+/g, ' ')
      .slice(0, 200); // one line, whatever the server answered
    throw new NotASnapshotError(`a JSON-RPC error response (${String(error?.code)}: ${message}), not a tools/list result`);
  }
  if (object.jsonrpc === '2.0' && object.result !== null && typeof object.result === 'object' && !Array.isArray(object.result)) object = object.result as Record<string, unknown>;
  const tools = object.tools;
  if (!Array.isArray(tools) || tools.some((tool) => tool !== null && typeof tool === 'object' && 'implementation' in tool)) return undefined;
  tools.forEach((tool: unknown, index) => {
    if (tool === null || typeof tool !== 'object' || Array.isArray(tool)) throw new NotASnapshotError(`tools[${index}] must be an object`);
    if (typeof (tool as Record<string, unknown>).name !== 'string') throw new NotASnapshotError(`tools[${index}] has no "name" string`);
  });
  if (typeof object.nextCursor === 'string' && object.nextCursor !== '') {
    note?.(
      `one page of a paginated tools/list (it has a nextCursor): the server's later pages are not in it, only the ${tools.length} tool${tools.length === 1 ? '' : 's'} of this one (toolrun mcp snapshot SERVER lists them all)`,
    );
  }
  return { toolrunSnapshot: 1, server: { name }, tools: tools as ApiItem[] };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new NotASnapshotError(`not valid JSON (${(error as Error).message}); a snapshot is the JSON document toolrun mcp snapshot SERVER prints`);
  }
}

function checkSnapshot(snapshot: Record<string, unknown>): ApiSnapshot {
  if (snapshot.toolrunSnapshot === undefined) throw new NotASnapshotError('not a toolrun snapshot: it has no "toolrunSnapshot" field (write one with: toolrun mcp snapshot SERVER > FILE)');
  if (snapshot.toolrunSnapshot !== 1) throw new NotASnapshotError(`snapshot format ${JSON.stringify(snapshot.toolrunSnapshot)} is not one this toolrun reads (1); update toolrun`);
  const server = snapshot.server as { name?: unknown } | undefined;
  if (!server || typeof server !== 'object' || typeof server.name !== 'string') throw new NotASnapshotError('"server" must be an object with a "name" string');
  for (const { list, key } of SECTIONS) {
    const items = snapshot[list];
    if (!Array.isArray(items)) throw new NotASnapshotError(`"${list}" must be an array, found ${items === undefined ? 'nothing' : typeof items}`);
    items.forEach((item: unknown, index) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new NotASnapshotError(`${list}[${index}] must be an object`);
      if (typeof (item as Record<string, unknown>)[key] !== 'string') throw new NotASnapshotError(`${list}[${index}] has no "${key}" string`);
    });
  }
  // The Skills extension's list, present only for a server that declares it.
  if (snapshot.skills !== undefined) {
    if (!Array.isArray(snapshot.skills)) throw new NotASnapshotError(`"skills" must be an array, found ${typeof snapshot.skills}`);
    snapshot.skills.forEach((item: unknown, index) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item) || typeof (item as Record<string, unknown>).uri !== 'string')
        throw new NotASnapshotError(`skills[${index}] must be an object with a "uri" string`);
    });
  }
  return snapshot as unknown as ApiSnapshot;
}

/** `api.json` → `api`: a tools/list result names no server, so its file's name stands in. */
export function fileStem(path: string): string {
  return basename(path).replace(/\.[^.]+$/, '') || basename(path);
}
