import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolrunError } from '../errors.js';

/** Where a holder's socket, lock and log live. */
export interface SessionFiles {
  dir: string;
  socket: string;
  lock: string;
  log: string;
}

/**
 * The directory of this user's holders: `$XDG_RUNTIME_DIR/toolrun`, else `<tmp>/toolrun-<uid>`,
 * created 0700 and checked to be this user's own real directory that nobody else can read — a
 * socket there accepts tool calls, so another user must not reach it or plant one.
 */
export function sessionDirectory(env: NodeJS.ProcessEnv): string {
  const dir = sessionDirectoryPath(env);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new ToolrunError('config', `cannot create the session directory ${dir}: ${(error as Error).message}; set XDG_RUNTIME_DIR to a directory of your own`, { cause: error });
  }
  return checkedDirectory(dir);
}

/** The directory if it exists (checked as above), else undefined: looking for a holder creates nothing. */
export function existingSessionDirectory(env: NodeJS.ProcessEnv): string | undefined {
  const dir = sessionDirectoryPath(env);
  return existsSync(dir) ? checkedDirectory(dir) : undefined;
}

export function sessionDirectoryPath(env: NodeJS.ProcessEnv): string {
  const runtime = env.XDG_RUNTIME_DIR;
  return runtime?.startsWith('/') ? join(runtime, 'toolrun') : join(tmpdir(), `toolrun-${process.getuid?.() ?? 0}`);
}

/**
 * The directory, if it is this user's own private directory. Anything else is a setup problem of
 * the user's machine (exit 3, as for a config), said with what to remove or change — never used.
 */
function checkedDirectory(dir: string): string {
  const uid = process.getuid?.() ?? 0;
  const stats = lstatSync(dir);
  const elsewhere = 'or set XDG_RUNTIME_DIR to a directory of your own';
  if (!stats.isDirectory() || stats.isSymbolicLink())
    throw new ToolrunError('config', `the session directory ${dir} is not a directory (${stats.isSymbolicLink() ? 'a symbolic link' : 'a file'}); remove it (rm ${dir}), ${elsewhere}`);
  if (stats.uid !== uid)
    throw new ToolrunError('config', `the session directory ${dir} belongs to another user (uid ${stats.uid}), so toolrun will not use it; remove it (rm -r ${dir}), ${elsewhere}`);
  if ((stats.mode & 0o077) !== 0)
    throw new ToolrunError('config', `the session directory ${dir} is open to other users (mode ${(stats.mode & 0o777).toString(8)}); run chmod 700 ${dir}, or remove it (rm -r ${dir})`);
  return dir;
}

export function sessionFiles(dir: string, key: string): SessionFiles {
  return { dir, socket: join(dir, `${key}.sock`), lock: join(dir, `${key}.lock`), log: join(dir, `${key}.log`) };
}
