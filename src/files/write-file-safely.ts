import { lazyCrypto } from '../lazy-crypto.js';
import { closeSync, constants, fchmodSync, fsyncSync, linkSync, lstatSync, openSync, renameSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

/**
 * Writing files where someone else may have planted something (issue #19 item 11): toolrun often runs
 * as root, in folders another local user can write to (-o /tmp/out), so a name there may already be a
 * symbolic link to /etc/passwd. Nothing here follows a link or writes into a file it did not create:
 * every file is opened with O_CREAT|O_EXCL|O_NOFOLLOW, and an existing name is only ever replaced by
 * rename(), which swaps the directory entry and never writes through it.
 */

const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Why a path cannot be written: the message says why without naming it (`it is a folder…`); `code` for callers that add advice. */
export class UnsafePathError extends Error {
  readonly code: 'symlink' | 'not-regular' | 'no-folder' | 'taken' | 'foreign' | 'foreign-folder' | 'hard-link';
  readonly path: string;
  constructor(code: UnsafePathError['code'], path: string, message: string) {
    super(message);
    this.name = 'UnsafePathError';
    this.code = code;
    this.path = path;
  }
}

/** Creates `path` with `bytes`; throws (EEXIST) when anything, a link included, already has that name. */
export function createFileExclusively(path: string, bytes: Uint8Array, mode = 0o666): void {
  const fd = openSync(path, CREATE_NEW, mode);
  try {
    writeAll(fd, bytes);
    closeSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(path);
    throw error;
  }
}

/**
 * Creates a new file with `bytes` under `path`, or under `stem-1.ext`, `stem-2.ext`… when the name
 * is taken (by a file, a folder or a link: none is touched). Returns the path written and, when it is
 * not `path`, what had that name ('a regular file', 'a symbolic link'…).
 */
export function createFileUnderFreeName(path: string, bytes: Uint8Array, maxTries = 1000): { path: string; taken?: string } {
  const extension = extname(path);
  const stem = path.slice(0, path.length - extension.length);
  let taken: string | undefined;
  for (let attempt = 0; attempt < maxTries; attempt++) {
    const candidate = attempt === 0 ? path : `${stem}-${attempt}${extension}`;
    try {
      createFileExclusively(candidate, bytes);
      return { path: candidate, taken };
    } catch (error) {
      // ELOOP: O_NOFOLLOW met a link (some systems say so instead of EEXIST with O_EXCL).
      if (!['EEXIST', 'ELOOP'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
      if (attempt === 0) taken = describeKind(lstatSync(path));
    }
  }
  throw new UnsafePathError('taken', path, `it and ${maxTries - 1} numbered names after it exist already`);
}

export interface ReplaceOptions {
  /** For a new file (narrowed by the umask); a replaced regular file keeps its permission bits unless `exactMode`. */
  mode?: number;
  /** Exactly this mode, whatever the umask or the replaced file had (toolrun's private cache files). */
  exactMode?: number;
  /** fsync before the rename: the user's file survives a crash; a cache file need not. */
  durable?: boolean;
  /**
   * Replace a link, FIFO or device under that name too (the entry, never what it points to): for
   * toolrun's own files in its own folder, where such a thing is debris to clear, not the user's.
   */
  replaceOddEntries?: boolean;
}

/**
 * Writes `bytes` to `path` whole or not at all: into a new temporary file in the same folder, then
 * renamed over `path`. An existing regular file is replaced (keeping its permission bits); a link,
 * folder, FIFO or device under that name is refused, never written through or replaced. Returns
 * whether a file was replaced.
 */
export function replaceFileAtomically(path: string, bytes: Uint8Array, options: ReplaceOptions = {}): { replaced: boolean } {
  const existing = lstatOrUndefined(path);
  const odd = existing && !existing.isFile();
  if (odd && !(options.replaceOddEntries && !existing.isDirectory())) {
    if (existing.isSymbolicLink()) throw new UnsafePathError('symlink', path, 'it is a symbolic link');
    throw new UnsafePathError('not-regular', path, `it is ${describeKind(existing)}, not a regular file`);
  }
  const folder = dirname(path);
  if (!lstatOrUndefined(folder)) throw new UnsafePathError('no-folder', path, `the folder ${folder} does not exist`);
  const keptMode = existing && !odd ? existing.mode & 0o777 : undefined;
  const temporary = createTemporaryBeside(path, bytes, { mode: options.exactMode ?? options.mode ?? 0o666, exactMode: options.exactMode ?? keptMode, durable: options.durable });
  try {
    renameSync(temporary, path);
  } catch (error) {
    unlinkSync(temporary);
    throw error;
  }
  return { replaced: existing !== undefined };
}

/**
 * Writes `bytes` to `path` whole, only when nothing has that name: a temporary file linked to it
 * (link() fails with EEXIST rather than replace). Two writers at once: one wins, the other throws.
 */
export function publishFileOnce(path: string, bytes: Uint8Array, mode = 0o600): void {
  const temporary = createTemporaryBeside(path, bytes, { mode });
  try {
    linkSync(temporary, path);
  } finally {
    unlinkSync(temporary);
  }
}

/**
 * A new file with `bytes` beside `path`. The first name tried is predictable (`.NAME.toolrun.tmp`);
 * whatever is there is left alone and random names are tried instead.
 */
function createTemporaryBeside(path: string, bytes: Uint8Array, options: { mode: number; exactMode?: number; durable?: boolean }): string {
  const folder = dirname(path);
  for (let attempt = 0; attempt < 8; attempt++) {
    const temporary = join(folder, `.${basename(path)}.toolrun${attempt === 0 ? '' : `-${lazyCrypto().randomBytes(6).toString('hex')}`}.tmp`);
    let fd: number;
    try {
      fd = openSync(temporary, CREATE_NEW, options.mode);
    } catch (error) {
      if (['EEXIST', 'ELOOP'].includes((error as NodeJS.ErrnoException).code ?? '')) continue;
      throw error;
    }
    try {
      // A replaced file keeps exactly the mode it had (open's mode is narrowed by the umask).
      if (options.exactMode !== undefined) fchmodSync(fd, options.exactMode);
      writeAll(fd, bytes);
      // The user's file survives a crash right after the rename; a cache file that does not is only rebuilt.
      if (options.durable) fsyncSync(fd);
      closeSync(fd);
    } catch (error) {
      closeSync(fd);
      unlinkSync(temporary);
      throw error;
    }
    return temporary;
  }
  throw new UnsafePathError('taken', path, 'no free temporary name in its folder');
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export function describeKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'a regular file';
}
