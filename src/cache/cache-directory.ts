import { homedir } from 'node:os';
import { join } from 'node:path';

/** toolrun's folder in the user's cache ($XDG_CACHE_HOME/toolrun, or ~/.cache/toolrun). */
export function cacheDirectory(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : join(env.HOME || homedir(), '.cache');
  return join(base, 'toolrun');
}
