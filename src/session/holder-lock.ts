import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { ToolrunError } from '../errors.js';
import type { ConnectFailure } from '../mcp/connect-failure.js';
import { isProcessAlive } from '../process/process-tree.js';
import { HolderClient } from './holder-client.js';
import type { HolderStatus } from './holder-protocol.js';

/** One holder per user and config: its lock file holds the pid of the holder that owns the socket. */

/** Takes the config's lock; false when a live holder has it. A lock left by a dead holder is taken over. */
export function acquireLock(lock: string): boolean {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(safeRead(lock));
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isProcessAlive(owner)) return false;
      tryUnlink(lock);
    }
  }
  return false;
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
