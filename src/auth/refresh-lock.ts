import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { ToolrunError } from '../errors.js';

/** A lock held longer than this is from a process that hung or died on another machine sharing the folder. */
const STALE_MS = 30_000;
/** A refresh is one token request: waiting longer than this for another process means something is wrong. */
const WAIT_MS = 15_000;
const POLL_MS = 20;

export interface LockLimits {
  /** A lock older than this is taken over (its process hung, or runs on another machine sharing the folder). */
  staleMs: number;
  /** How long to wait for another process before giving up. */
  waitMs: number;
  /** What the holder does, for the message when the wait is over. */
  doing: string;
}

const REFRESH_LIMITS: LockLimits = { staleMs: STALE_MS, waitMs: WAIT_MS, doing: 'refreshing a token' };

/**
 * Runs `work` while holding `lockPath` (created with O_EXCL, holding our pid), so that parallel
 * toolruns refresh a token once (with rotating refresh tokens, a second refresh with the same
 * token is a replay the authorization server answers by revoking the whole grant) and log in once
 * (login-once.ts). A lock whose process is gone, or older than `staleMs`, is taken over; the wait is bounded.
 */
export async function withFileLock<T>(lockPath: string, work: () => Promise<T>, limits: LockLimits = REFRESH_LIMITS): Promise<T> {
  const { staleMs, waitMs, doing } = limits;
  const started = Date.now();
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (isStale(lockPath, staleMs)) {
      try {
        unlinkSync(lockPath);
      } catch {
        // Another waiter removed it first: try to take it again.
      }
      continue;
    }
    if (Date.now() - started > waitMs) throw new ToolrunError('unreachable', `another toolrun has held ${lockPath} for over ${waitMs / 1000} s (${doing}); remove it if no toolrun runs`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    return await work();
  } finally {
    try {
      unlinkSync(lockPath);
    } catch {
      // Taken over as stale meanwhile: nothing of ours to remove.
    }
  }
}

function isStale(lockPath: string, staleMs: number): boolean {
  try {
    if (Date.now() - statSync(lockPath).mtimeMs > staleMs) return true;
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
    // Written in two steps (create, then the pid): an empty file is a lock being taken, not a stale one.
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // ESRCH: no such process. ENOENT: released meanwhile (retry at once). EPERM: alive, another user's.
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ESRCH' || code === 'ENOENT';
  }
}
