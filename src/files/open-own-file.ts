import { closeSync, constants, fchmodSync, fstatSync, ftruncateSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { foreignFolderReason } from './foreign-folder.js';
import { describeKind, UnsafePathError } from './write-file-safely.js';

export interface OpenOwnFileOptions {
  /** Keep what the file holds and write at its end (a history); otherwise it is emptied (a recording). */
  append?: boolean;
  /** A new file's mode (narrowed by the umask), or exactly this with `exactMode`. */
  mode?: number;
  /** Set on the open file whatever it had: a private file stays private (0600). */
  exactMode?: number;
}

/**
 * A file toolrun streams into (a recording, the shell's history) cannot be written whole and renamed
 * as write-file-safely.ts does, so it is opened in place, and only when it is this user's own:
 * O_NOFOLLOW (a link under the name is refused by open() itself), O_NONBLOCK (a FIFO cannot hang it),
 * then checked on the open descriptor, so nothing can be swapped in between: a regular file, owned by
 * this user exactly (root included: root writing into a user's file is what a planted name wants), with
 * no other hard link (a second name of /etc/shadow in /tmp is root's own file), in a folder that is
 * not another user's (foreignFolderReason). Returns the descriptor; throws UnsafePathError, or the fs
 * error (ENOENT: no such folder, EACCES).
 */
export function openOwnFileForWriting(path: string, options: OpenOwnFileOptions = {}): number {
  const foreign = foreignFolderOf(path);
  if (foreign) throw new UnsafePathError('foreign-folder', path, `its folder: ${foreign}`);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK | (options.append ? constants.O_APPEND : 0);
  let fd: number;
  try {
    fd = openSync(path, flags, options.exactMode ?? options.mode ?? 0o666);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new UnsafePathError('symlink', path, 'it is a symbolic link');
    // A FIFO with no reader (O_NONBLOCK) or a socket: not a file to write into.
    if (['ENXIO', 'EOPNOTSUPP'].includes((error as NodeJS.ErrnoException).code ?? '')) throw new UnsafePathError('not-regular', path, 'it is not a regular file');
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new UnsafePathError('not-regular', path, `it is ${describeKind(stats)}, not a regular file`);
    const uid = process.getuid?.();
    if (uid !== undefined && stats.uid !== uid) throw new UnsafePathError('foreign', path, `it is owned by another user (uid ${stats.uid})`);
    if (stats.nlink > 1) throw new UnsafePathError('hard-link', path, 'it has other hard links');
    if (options.exactMode !== undefined && (stats.mode & 0o777) !== options.exactMode) fchmodSync(fd, options.exactMode);
    if (!options.append) ftruncateSync(fd, 0);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** foreignFolderReason of the file's folder, or undefined when the folder is missing (open() then says ENOENT). */
function foreignFolderOf(path: string): string | undefined {
  try {
    return foreignFolderReason(dirname(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
