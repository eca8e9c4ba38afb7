import { lstatSync, mkdirSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { perRunState } from '../run-environment.js';

/** toolrun's folder in the user's cache ($XDG_CACHE_HOME/toolrun, or ~/.cache/toolrun). */
export function cacheDirectory(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : join(env.HOME || homedir(), '.cache');
  return join(base, 'toolrun');
}

/** Says once per run why the cache is not used (a `-v` line). */
export type CacheNote = (message: string) => void;

const refusedOf = perRunState(() => new Set<string>());

/**
 * A folder of the cache (toolrun's own, or one inside it) when it is safe to trust: a real folder of
 * this user that nobody else can write to — the same rule as the session directory's, minus its
 * "nobody else can read" (the cache holds tool names, no sockets). A folder someone else owns or can
 * write to may hold planted entries (root running with a user's HOME, a shared XDG_CACHE_HOME), so it
 * is not used: the run goes uncached, and `note` says why, once. `create` makes a missing folder
 * (0700); without it a missing folder is undefined, as for a run that has nothing cached yet.
 */
export function trustedCacheFolder(folder: string, options: { create: boolean; note?: CacheNote }): string | undefined {
  let stats;
  try {
    stats = lstatSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !options.create) return undefined;
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      stats = lstatSync(folder);
    } catch {
      // A read-only home: the caches are optimizations, toolrun works without them.
      return undefined;
    }
  }
  const problem = folderProblem(folder, stats);
  if (!problem) return folder;
  const refused = refusedOf();
  if (!refused.has(folder)) {
    refused.add(folder);
    options.note?.(`cache folder ${folder} ${problem.what}; running without it (${problem.fix})`);
  }
  return undefined;
}

function folderProblem(folder: string, stats: Stats): { what: string; fix: string } | undefined {
  if (!stats.isDirectory()) return { what: 'is not a folder', fix: `remove it: rm ${folder}` };
  const uid = process.getuid?.() ?? 0;
  if (stats.uid !== uid) return { what: `belongs to another user (uid ${stats.uid})`, fix: `remove it: rm -r ${folder}` };
  if ((stats.mode & 0o022) !== 0) return { what: `is writable by others (mode ${(stats.mode & 0o777).toString(8)})`, fix: `chmod 700 ${folder}` };
  return undefined;
}
