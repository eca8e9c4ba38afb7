import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { ToolrunError } from '../errors.js';
import type { ConnectFailure } from '../mcp/connect/connect-failure.js';
import { isProcessAlive } from '../process/process-tree.js';
import { HolderClient } from './holder-client.js';
import type { HolderStatus } from './holder-protocol.js';

/** One holder per user and config: its lock file holds the pid of the holder that owns the socket. */

/** How long a start waits while another one takes over a dead holder's lock. */
const TAKEOVER_WAIT_MS = 2000;

/** Takes the config's lock; false when a live holder has it. A lock left by a dead holder is taken over. */
export function acquireLock(lock: string): boolean {
  const takeover = `${lock}.takeover`;
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  // A lock this user cannot remove stays: three tries, as before, not a 2 s loop.
  let removals = 0;
  while (Date.now() <= deadline && removals < 3) {
    if (createHolding(lock, String(process.pid))) return true;
    if (hasLiveOwner(lock)) return false;
    // A dead holder's lock is removed only by the start that holds `takeover`, after it reads the lock
    // again: two starts that both found it dead each removed the lock the other had just made, and both
    // took it (3 runs in 4 of four starts taking over at once).
    if (createHolding(takeover, String(process.pid))) {
      try {
        // Gone meanwhile: another start may be making it now, and removing that would give two holders.
        const owner = ownerOf(lock);
        if (owner === 'live') return false;
        if (owner === 'dead') {
          removals++;
          tryUnlink(lock);
        }
      } finally {
        tryUnlink(takeover);
      }
    } else if (ownerOf(takeover) === 'dead') {
      // The start that took it died midway.
      tryUnlink(takeover);
    } else pause(5);
  }
  return false;
}

function hasLiveOwner(file: string): boolean {
  return ownerOf(file) === 'live';
}

/** What `file` says of its owner: a live process other than this one, or not (`dead`); or no file. */
function ownerOf(file: string): 'live' | 'dead' | 'missing' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    // Unreadable otherwise: as before, as if its owner had died (removing it then fails if it must).
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'dead';
  }
  const owner = Number(text);
  return Number.isInteger(owner) && owner > 0 && owner !== process.pid && isProcessAlive(owner) ? 'live' : 'dead';
}

/** Blocks this thread for `ms` (acquireLock is synchronous: it runs before the holder's event loop matters). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Creates `path` with `content` in it, or false when it exists. Never seen empty: the file is written
 * under another name and linked into place. (Created, then written, a lock read between the two by
 * another `session start` named no owner, was taken over as a dead holder's, and both started a
 * holder: 3 rounds in 40 of four racing starts.) A file system without hard links gets the plain way.
 */
function createHolding(path: string, content: string): boolean {
  const written = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(written, content, { mode: 0o600 });
    linkSync(written, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
  } finally {
    tryUnlink(written);
  }
  try {
    const fd = openSync(path, 'wx', 0o600);
    writeSync(fd, content);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Two `session start` at once: the second holder asks the first to hold its servers too, and leaves. */
export async function joinRunningHolder(socketPath: string, names: string[], announce: (ready: { status: HolderStatus; failures: ConnectFailure[]; joined: true }) => void): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const client = await HolderClient.connect(socketPath);
      const reply = await client.request('add', { servers: names });
      client.close();
      announce({ status: reply.status as HolderStatus, failures: reply.failures as ConnectFailure[], joined: true });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new ToolrunError('unreachable', `another session holder for this config is starting but did not answer within 60 s: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
