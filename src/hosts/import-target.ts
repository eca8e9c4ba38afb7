import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../errors.js';
import { foreignFolderReason } from '../files/foreign-folder.js';
import { readWholeFile } from '../files/read-whole-file.js';
import { createFileExclusively, replaceFileAtomically, UnsafePathError } from '../files/write-file-safely.js';
import { INPUT_LIMIT_BYTES } from '../input/open-input.js';

/** The toolrun config `hosts import` edits, as read: its text (no BOM), or none yet. */
export interface ImportTarget {
  path: string;
  exists: boolean;
  text: string;
  /** The file began with a byte order mark: it is written back with it. */
  bom: boolean;
}

/**
 * Reads the config an import will edit, refusing what it must not replace: a symbolic link (the
 * edit would replace the link with a file, or, followed, write where the link points: toolrun never
 * writes through one), anything but a regular file, a file of another user (the replacement would be
 * this user's, and root's edit of a user's file would become root's), a folder of another user (see
 * foreignFolderReason), and a file over SPEC §8's input limit. Opened O_NOFOLLOW|O_NONBLOCK: a link
 * is refused by open() itself, and a FIFO under the name cannot hang it.
 */
export function readImportTarget(path: string): ImportTarget {
  const refuse = (why: string) => new ConfigError(`cannot import into ${path}: ${why}`, { file: path });
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      if (!isFolder(dirname(path))) throw refuse(`the folder ${dirname(path)} does not exist`);
      const foreign = foreignFolderReason(dirname(path));
      if (foreign) throw refuse(`its folder: ${foreign}; name a file in a folder of your own with --into`);
      return { path, exists: false, text: '', bom: false };
    }
    if (code === 'ELOOP' || isLink(path)) throw refuse(`it is a symbolic link (to ${readlinkSync(path)}); toolrun never writes through or replaces one: name the file itself with --into`);
    if (code === 'EACCES' || code === 'EPERM') throw refuse('permission denied');
    throw refuse(`${code ?? (error as Error).message}`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw refuse(`it is ${stats.isDirectory() ? 'a folder' : 'not a regular file'}; name a config file`);
    const uid = process.getuid?.();
    if (uid !== undefined && stats.uid !== uid) throw refuse(`it belongs to another user (uid ${stats.uid}), and the edited file would be yours; run the import as that user`);
    const foreign = foreignFolderReason(dirname(path));
    if (foreign) throw refuse(`its folder: ${foreign}`);
    const bytes = stats.size > INPUT_LIMIT_BYTES ? undefined : readWholeFile(fd, stats.size, INPUT_LIMIT_BYTES);
    if (!bytes) throw refuse(`larger than ${INPUT_LIMIT_BYTES >> 20} MB; a config is a few kB`);
    const text = bytes.toString('utf8');
    const bom = text.charCodeAt(0) === 0xfeff;
    return { path, exists: true, text: bom ? text.slice(1) : text, bom };
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes the edited config whole or not at all (a temporary file in the same folder, renamed over
 * it: the file keeps its mode), or creates it when it did not exist (O_EXCL: never over a file that
 * appeared meanwhile). An existing file is read again first: one changed since it was read (an
 * editor saved it) is not overwritten with an edit of its old text. `mode`: a new file's, before the
 * umask.
 */
export function writeImportTarget(target: ImportTarget, text: string, mode = 0o666): void {
  const bytes = Buffer.from(target.bom ? `\uFEFF${text}` : text, 'utf8');
  const refuse = (why: string, cause?: unknown) => new ConfigError(`cannot import into ${target.path}: ${why}`, { file: target.path, cause });
  try {
    if (!target.exists) {
      createFileExclusively(target.path, bytes, mode);
      return;
    }
    const now = readImportTarget(target.path);
    if (!now.exists || now.text !== target.text || now.bom !== target.bom) throw refuse('it changed while the import was running; nothing was written, run it again');
    replaceFileAtomically(target.path, bytes, { durable: true });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ELOOP') throw refuse('something was created under that name while the import was running; nothing was written, run it again', error);
    if (error instanceof UnsafePathError) throw refuse(error.message, error);
    if (code === 'EACCES' || code === 'EPERM') throw refuse('permission denied (the file or its folder)', error);
    throw refuse((error as Error).message, error);
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
