import { ToolrunError } from '../errors.js';
import { SECTIONS, type ApiSnapshot } from './snapshot-types.js';

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
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new NotASnapshotError(`not valid JSON (${(error as Error).message}); a snapshot is the JSON document toolrun mcp snapshot SERVER prints`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new NotASnapshotError('not a toolrun snapshot: a snapshot is a JSON object');
  const snapshot = value as Record<string, unknown>;
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
  return snapshot as unknown as ApiSnapshot;
}
