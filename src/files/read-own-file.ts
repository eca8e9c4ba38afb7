import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { readWholeFile } from './read-whole-file.js';

/**
 * The bytes of a file toolrun is about to rewrite or trust as its own record (a host config it
 * edits, the backup it left beside it): a regular file, not a link (O_NOFOLLOW), owned by this user
 * and not writable by every user, at most `limitBytes`. Owned by this user exactly, root included:
 * a file rewritten by rename() belongs to whoever wrote it, so root editing a user's file would
 * take it from them. Missing: undefined; anything else wrong: the reason, to be shown.
 */
export function readOwnFile(path: string, limitBytes: number): { bytes: Buffer } | { problem: string } | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') return { problem: 'it is a symbolic link' };
    return { problem: `it cannot be read (${code ?? (error as Error).message})` };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { problem: 'it is not a regular file' };
    const uid = process.getuid?.();
    if (uid !== undefined && stats.uid !== uid) return { problem: `it is owned by another user (uid ${stats.uid})` };
    if (process.platform !== 'win32' && (stats.mode & 0o002) !== 0) return { problem: 'it is writable by every user' };
    const bytes = stats.size > limitBytes ? undefined : readWholeFile(fd, stats.size, limitBytes);
    return bytes ? { bytes } : { problem: `it is larger than ${Math.round(limitBytes / (1 << 20))} MB` };
  } finally {
    closeSync(fd);
  }
}
