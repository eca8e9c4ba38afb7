import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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
  // Another user's entry in a sticky folder (/tmp: made first, to catch this user's tool calls) can be
  // removed only by its owner or root: the way out is XDG_RUNTIME_DIR, which toolrun then uses.
  const removable = stats.uid === uid || !isSticky(dirname(dir));
  const fix = removable
    ? `remove it (rm${stats.isDirectory() && !stats.isSymbolicLink() ? ' -r' : ''} ${dir}), ${elsewhere}`
    : `set XDG_RUNTIME_DIR to a directory of your own (${runtimeDirAdvice(uid)}); only uid ${stats.uid} or root can remove it`;
  if (!stats.isDirectory() || stats.isSymbolicLink())
    throw new ToolrunError('config', `the session directory ${dir} is not a directory (${stats.isSymbolicLink() ? 'a symbolic link' : 'a file'}); ${fix}`);
  if (stats.uid !== uid) throw new ToolrunError('config', `the session directory ${dir} belongs to another user (uid ${stats.uid}), so toolrun will not use it; ${fix}`);
  if ((stats.mode & 0o077) !== 0)
    throw new ToolrunError('config', `the session directory ${dir} is open to other users (mode ${(stats.mode & 0o777).toString(8)}); run chmod 700 ${dir}, or remove it (rm -r ${dir})`);
  return dir;
}

function isSticky(folder: string): boolean {
  try {
    return (lstatSync(folder).mode & 0o1000) !== 0;
  } catch {
    return false;
  }
}

/** This user's systemd runtime folder when it has one (pam_systemd makes /run/user/UID, 0700), else a private folder to make. */
function runtimeDirAdvice(uid: number): string {
  const systemd = `/run/user/${uid}`;
  try {
    const stats = lstatSync(systemd);
    if (stats.isDirectory() && stats.uid === uid && (stats.mode & 0o077) === 0) return `export XDG_RUNTIME_DIR=${systemd}`;
  } catch {
    // None: a folder in the home directory serves.
  }
  return 'mkdir -m 700 ~/.toolrun-runtime && export XDG_RUNTIME_DIR=~/.toolrun-runtime';
}

export function sessionFiles(dir: string, key: string): SessionFiles {
  return { dir, socket: join(dir, `${key}.sock`), lock: join(dir, `${key}.lock`), log: join(dir, `${key}.log`) };
}
