import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$XDG_DATA_HOME/toolrun/auth` (default `~/.local/share/toolrun/auth`): tokens are data to keep, not a cache to clear. */
export function authDirectory(env: NodeJS.ProcessEnv): string {
  const dataHome = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/') ? env.XDG_DATA_HOME : join(env.HOME || homedir(), '.local', 'share');
  return join(dataHome, 'toolrun', 'auth');
}

/**
 * One file per server name and URL: a config that points the same name at another URL never gets
 * (or sends) the first server's tokens. The issuer is kept inside, and a token stamped for another
 * issuer is never presented (the SDK checks the stamp).
 */
export function authFileName(server: string, url: string): string {
  const safe = server.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
  return `${safe}-${createHash('sha256').update(url).digest('hex').slice(0, 12)}.json`;
}
