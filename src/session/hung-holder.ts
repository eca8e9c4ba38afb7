import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { isProcessAlive, signalProcess } from '../process/process-tree.js';
import type { HolderStatus } from './holder-protocol.js';

/** How long a hung holder gets to end itself (and its servers) after SIGTERM before SIGKILL. */
export const HUNG_HOLDER_GRACE_MS = 2000;

/**
 * A holder that accepts connections but does not answer (SIGSTOPped, stuck): what can be known of it
 * without its help — its pid from its lock file, checked to be a session holder still (not a pid
 * the system gave another program), its config from its command line, and its state. Undefined
 * when no holder process owns that socket.
 */
export function hungHolderStatus(socket: string): HolderStatus | undefined {
  const pid = Number(safeRead(socket.replace(/\.sock$/, '.lock')).trim());
  if (!Number.isInteger(pid) || pid <= 0 || !isProcessAlive(pid)) return undefined;
  const argv = safeRead(`/proc/${pid}/cmdline`).split('\0');
  if (!argv.some((word) => basename(word) === 'session-holder.js')) return undefined;
  const configIndex = argv.indexOf('--config');
  const state = safeRead(`/proc/${pid}/stat`).split(') ')[1]?.[0];
  return {
    pid,
    socket,
    config: configIndex >= 0 ? (argv[configIndex + 1] ?? null) : null,
    startedAt: '',
    idleMs: 0,
    idleTimeoutMs: 0,
    requests: 0,
    holdsAll: false,
    servers: [],
    hung: state === 'T' || state === 't' ? 'stopped (SIGSTOP): it does not answer' : 'it does not answer',
  };
}

/**
 * Ends a holder that cannot be asked to: SIGTERM (with SIGCONT, so a stopped one can act on it and
 * end its servers itself), then SIGKILL after a grace — its reaper then ends its servers.
 */
export async function endHungHolder(pid: number): Promise<'SIGTERM' | 'SIGKILL'> {
  signalProcess(pid, 'SIGTERM');
  signalProcess(pid, 'SIGCONT');
  const deadline = Date.now() + HUNG_HOLDER_GRACE_MS;
  while (isProcessAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!isProcessAlive(pid)) return 'SIGTERM';
  signalProcess(pid, 'SIGKILL');
  // Bounded: a process in uninterruptible sleep (a hung NFS read) outlives even SIGKILL for a while.
  const killDeadline = Date.now() + HUNG_HOLDER_GRACE_MS;
  while (isProcessAlive(pid) && Date.now() < killDeadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return 'SIGKILL';
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
