import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { readWholeFile } from '../files/read-whole-file.js';
import { replaceFileAtomically } from '../files/write-file-safely.js';

/**
 * The bytes of a cache file, or undefined when it is anything but this user's regular file of at most
 * `limitBytes`: missing, a link (never followed: O_NOFOLLOW), a FIFO (opened O_NONBLOCK, so open()
 * cannot hang, and not read), a device (`/dev/zero` is not read at all), too big, or someone else's.
 * `privateOnly` also refuses a file others can read (the key). A regular file of bounded size is read
 * at once, so the read cannot block a signal for long.
 */
export function readCacheFile(path: string, limitBytes: number, options: { privateOnly?: boolean } = {}): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > limitBytes || stats.uid !== (process.getuid?.() ?? 0)) return undefined;
    if (options.privateOnly && (stats.mode & 0o077) !== 0) return undefined;
    return readWholeFile(fd, stats.size, limitBytes);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces a cache file whole (a temporary file created O_EXCL|O_NOFOLLOW, renamed over it), never
 * writing through what is there: a planted link or FIFO under the name is replaced, not followed.
 * False when it could not be written (a read-only home: the next run only recomputes).
 */
export function writeCacheFile(path: string, text: string): boolean {
  try {
    replaceFileAtomically(path, Buffer.from(text), { exactMode: 0o600, replaceOddEntries: true });
    return true;
  } catch {
    return false;
  }
}
