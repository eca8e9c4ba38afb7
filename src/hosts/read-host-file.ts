import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { readWholeFile } from '../files/read-whole-file.js';
import { firstInvalidUtf8 } from '../files/first-invalid-utf8.js';
import { INPUT_LIMIT_BYTES } from '../input/open-input.js';

/**
 * A host file's text within SPEC §8's bounds, or why it could not be read (a problem for `hosts`,
 * never a crash). Opened O_NONBLOCK, so a FIFO under the name cannot hang open(), and read only if
 * it is a regular file of at most INPUT_LIMIT_BYTES; a symlink is followed by open() itself, and a
 * loop of links is ELOOP, reported, not followed forever. Missing: undefined.
 */
export function readHostFile(path: string, limitBytes = INPUT_LIMIT_BYTES): { text: string } | { problem: string } | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'ELOOP') return { problem: 'a loop of symbolic links: not read' };
    if (code === 'EACCES' || code === 'EPERM') return { problem: 'not readable (permission denied)' };
    return { problem: `not readable: ${code ?? (error as Error).message}` };
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return { problem: 'a folder, not a file' };
    if (!stats.isFile()) return { problem: 'not a regular file (a FIFO, socket or device): not read' };
    // A file someone else could have written is not run as this user's config (SPEC §8): another
    // user's file, or one any user may change (root's own files are trusted, as the OS does).
    const uid = process.getuid?.();
    if (uid !== undefined && stats.uid !== uid && stats.uid !== 0) return { problem: `owned by another user (uid ${stats.uid}): not used` };
    if (process.platform !== 'win32' && (stats.mode & 0o002) !== 0) return { problem: 'writable by every user: not used (chmod o-w it)' };
    if (stats.size > limitBytes) return { problem: `larger than ${Math.round(limitBytes / (1 << 20))} MB: not read` };
    const bytes = readWholeFile(fd, stats.size, limitBytes);
    if (!bytes) return { problem: `larger than ${Math.round(limitBytes / (1 << 20))} MB: not read` };
    // A file that is not UTF-8 (a UTF-16 save, a binary under the name) is not guessed at: decoding would turn its bytes into U+FFFD silently.
    const invalid = firstInvalidUtf8(bytes);
    if (invalid !== undefined) return { problem: `not UTF-8 (byte 0x${bytes[invalid]!.toString(16).padStart(2, '0')} at offset ${invalid}): not read; save it as UTF-8` };
    let text = bytes.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { text };
  } catch (error) {
    return { problem: `not readable: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  } finally {
    closeSync(fd);
  }
}
