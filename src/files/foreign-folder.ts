import { lstatSync, statSync } from 'node:fs';

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
