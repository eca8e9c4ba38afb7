import { readdirSync, readFileSync } from 'node:fs';

/**
 * How many servers may be starting at once. Each stdio server costs toolrun three pipes (six file
 * descriptors while spawning) and a process; hundreds at once hit the open-files limit (EMFILE) or
 * the machine. 16 keeps a 50-server config fast; a low `ulimit -n` lowers it further.
 */
export function parallelStartLimit(): number {
  const openFiles = readOpenFilesLimit();
  // Leave room for toolrun's own descriptors; 8 per server covers pipes and spawn's own.
  return Math.max(1, Math.min(16, Math.floor((openFiles - 32) / 8)));
}

/** Descriptors a spawn needs: three pipes (two ends each) and the ones spawn uses for itself. */
export const DESCRIPTORS_PER_SPAWN = 10;

/**
 * The open-files limit and how many are in use now (Linux), or undefined where /proc does not say.
 * A spawn that would hit the limit must not be tried: execa 9 throws a TypeError on EMFILE and
 * leaves Node's ChildProcess to emit an 'error' nobody listens to, which crashes toolrun.
 */
export function openFileDescriptors(): { inUse: number; limit: number } | undefined {
  try {
    return { inUse: readdirSync('/proc/self/fd').length, limit: readOpenFilesLimit() };
  } catch {
    return undefined;
  }
}

function readOpenFilesLimit(): number {
  try {
    const match = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return match ? Number(match[1]) : 1024;
  } catch {
    // No /proc (macOS): its default soft limit is 256.
    return 256;
  }
}

/** `work` for every item, at most `limit` at a time; results in the items' order. */
export async function mapWithLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
