import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { LOCKED_SECTIONS, type LockFile } from './lock-types.js';

/** A lock file that cannot be used: its message names what is wrong and how to make a good one. */
export class BadLockError extends Error {
  override name = 'BadLockError';
}

const REMAKE = 'write it again with: toolrun lock';

/** The lock in `text`, checked enough that the check and a filter can trust its shape. */
export function parseLock(text: string): LockFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BadLockError(`not valid JSON (${(error as Error).message}); ${REMAKE}`);
  }
  if (!isObject(value) || value.toolrunLock === undefined) throw new BadLockError(`not a toolrun lock: it has no "toolrunLock" field; ${REMAKE}`);
  if (value.toolrunLock !== 1) throw new BadLockError(`lock format ${JSON.stringify(value.toolrunLock)} is not one this toolrun reads (1); update toolrun`);
  if (!isObject(value.servers)) throw new BadLockError(`"servers" must be an object; ${REMAKE}`);
  for (const [name, entry] of Object.entries(value.servers)) {
    const at = `servers[${JSON.stringify(name)}]`;
    if (!isObject(entry)) throw new BadLockError(`${at} must be an object; ${REMAKE}`);
    if (!isObject(entry.launch) || !isObject(entry.server)) throw new BadLockError(`${at} has no "launch" or "server" object; ${REMAKE}`);
    for (const { list } of LOCKED_SECTIONS) {
      const items = entry[list];
      if (!Array.isArray(items)) throw new BadLockError(`${at}.${list} must be an array; ${REMAKE}`);
      items.forEach((item, index) => {
        if (!isObject(item) || typeof item.key !== 'string' || typeof item.sha256 !== 'string' || !isObject(item.definition))
          throw new BadLockError(`${at}.${list}[${index}] needs "key", "sha256" and "definition"; ${REMAKE}`);
      });
    }
    if (!Array.isArray(entry.findings)) throw new BadLockError(`${at}.findings must be an array; ${REMAKE}`);
  }
  return value as unknown as LockFile;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The lock at `path` (`shown` as the user gave it), or a UsageError naming what is wrong and the fix. */
export function readLockFile(path: string, shown: string): LockFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`${shown}: no such file; pin the servers first with: toolrun lock`);
    if (code === 'EISDIR') throw new UsageError(`${shown} is a folder, not a lock file`);
    if (code === 'EACCES') throw new UsageError(`${shown}: not readable (permission denied)`);
    throw error;
  }
  try {
    return parseLock(text);
  } catch (error) {
    if (error instanceof BadLockError) throw new UsageError(`${shown}: ${error.message}`);
    throw error;
  }
}
