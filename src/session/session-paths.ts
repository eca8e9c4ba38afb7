import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`cannot create the session directory ${dir}: ${(error as Error).message}`, { cause: error });
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

function checkedDirectory(dir: string): string {
  const uid = process.getuid?.() ?? 0;
  const stats = lstatSync(dir);
  if (!stats.isDirectory() || stats.isSymbolicLink()) throw new Error(`the session directory ${dir} is not a directory; remove it`);
  if (stats.uid !== uid) throw new Error(`the session directory ${dir} belongs to another user (uid ${stats.uid}); remove it`);
  if ((stats.mode & 0o077) !== 0) throw new Error(`the session directory ${dir} is readable by others (mode ${(stats.mode & 0o777).toString(8)}); run chmod 700 ${dir}`);
  return dir;
}

export function sessionFiles(dir: string, key: string): SessionFiles {
  return { dir, socket: join(dir, `${key}.sock`), lock: join(dir, `${key}.lock`), log: join(dir, `${key}.log`) };
}
