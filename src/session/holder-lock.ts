import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { ToolrunError } from '../errors.js';
import type { ConnectFailure } from '../mcp/connect-failure.js';
import { isProcessAlive } from '../process/process-tree.js';
import { HolderClient } from './holder-client.js';
import type { HolderStatus } from './holder-protocol.js';

/** One holder per user and config: its lock file holds the pid of the holder that owns the socket. */

/** Takes the config's lock; false when a live holder has it. A lock left by a dead holder is taken over. */
export function acquireLock(lock: string): boolean {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createHolding(lock, String(process.pid))) return true;
    const owner = Number(safeRead(lock));
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isProcessAlive(owner)) return false;
    tryUnlink(lock);
  }
  return false;
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

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

export function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
