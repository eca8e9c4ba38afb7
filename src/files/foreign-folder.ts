import { lstatSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { UnsafePathError } from './write-file-safely.js';

/**
 * Why toolrun must not create files in `folder`, or undefined when it may. O_NOFOLLOW guards a
 * file's own name, not the folder: `-o /tmp/out`, where another user planted `/tmp/out` as a link to
 * a system folder, would have root create files there. A link or folder that belongs to another user
 * (root's are trusted, as the OS does) is refused, with the reason as a phrase: `it is a symbolic
 * link owned by another user (uid 1001)`.
 */
export function foreignFolderReason(folder: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  for (const stats of [lstatSync(folder), statSync(folder)]) {
    if (stats.uid !== uid && stats.uid !== 0) return `${stats.isSymbolicLink() ? 'it is a symbolic link' : 'it is a folder'} owned by another user (uid ${stats.uid})`;
  }
  return undefined;
}

/**
 * Refuses to create or replace `path` when its folder is another user's (or a link to one), or when
 * the file there is another user's: the checks `exec -o` and `mcp tap --record` make, for files
 * written whole and renamed into place. A missing folder or file is left to the write to report.
 */
export function refuseForeignPlace(path: string): void {
  let foreign: string | undefined;
  try {
    foreign = foreignFolderReason(dirname(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (foreign) throw new UnsafePathError('foreign-folder', path, `its folder: ${foreign}`);
  const stats = lstatSync(path, { throwIfNoEntry: false });
  const uid = process.getuid?.();
  if (stats && !stats.isSymbolicLink() && uid !== undefined && stats.uid !== uid) throw new UnsafePathError('foreign', path, `it is owned by another user (uid ${stats.uid})`);
}
