import { closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { foreignFolderReason } from '../files/foreign-folder.js';
import { openOwnFileForWriting } from '../files/open-own-file.js';
import { readOwnFile } from '../files/read-own-file.js';
import { replaceFileAtomically, UnsafePathError } from '../files/write-file-safely.js';
import { isSecretName, maskNamedValue, maskSecrets } from '../secrets/mask-secrets.js';

/** Lines kept in the history file (the oldest go first). */
export const HISTORY_LINES = 1000;

/** A history file is HISTORY_LINES lines of at most 64 KB (MAX_SHELL_LINE_BYTES): more is not ours to read. */
const HISTORY_LIMIT_BYTES = 64 << 20;

/** `$XDG_STATE_HOME/toolrun/history`, else `~/.local/state/toolrun/history` (XDG base directories). */
export function historyPath(env: NodeJS.ProcessEnv): string {
  const state = env.XDG_STATE_HOME?.startsWith('/') ? env.XDG_STATE_HOME : join(env.HOME || homedir(), '.local', 'state');
  return join(state, 'toolrun', 'history');
}

/**
 * A line as it may be written down: `token=…` style arguments (a name that says secret) and
 * anything that looks like a secret (sk-…, Bearer …, --password x) masked, by src/secrets.
 */
export function maskHistoryLine(line: string): string {
  const named = line.replace(/(^|\s)([\w.-]+)(:?=)('[^']*'|"(?:[^"\\]|\\.)*"|\S+)/g, (whole, space: string, key: string, equals: string, value: string) =>
    isSecretName(key) ? `${space}${key}${equals}${maskNamedValue(key, value)}` : whole,
  );
  return maskSecrets(named);
}

/**
 * The shell's history file: read at start (newest first, as readline wants it), appended to as lines
 * are run (masked), trimmed to HISTORY_LINES when the shell ends. Private: 0600 in a 0700 folder,
 * since what people type into a tool is often not for others. Root runs the shell with another user's
 * HOME (sudo), so nothing here follows a link or touches what is not this user's (issue #31): a folder
 * or file that is a link or another user's, or a history that cannot be read or written, is not the
 * shell's failure: it runs without one, saying so once.
 */
export class ShellHistory {
  readonly path: string;
  #broken: string | undefined;
  #appended = 0;

  constructor(path: string) {
    this.path = path;
  }

  /** Newest first; none, with the problem to say, when the history is not this user's or cannot be read. */
  load(): { lines: string[]; problem?: string } {
    try {
      this.#checkFolders();
      const read = readOwnFile(this.path, HISTORY_LIMIT_BYTES);
      if (read === undefined) return { lines: [] };
      if ('problem' in read) throw new UnsafePathError('foreign', this.path, read.problem);
      return { lines: read.bytes.toString('utf8').split('\n').filter(Boolean).slice(-HISTORY_LINES).reverse() };
    } catch (error) {
      return { lines: [], problem: this.#fail(error) };
    }
  }

  /** Appends a line (masked); a problem is returned once (none when load() said one), for the shell to say. */
  add(line: string): string | undefined {
    if (this.#broken !== undefined || !line.trim()) return undefined;
    try {
      this.#makeFolder();
      const fd = openOwnFileForWriting(this.path, { append: true, exactMode: 0o600 });
      try {
        const bytes = Buffer.from(`${maskHistoryLine(line).replace(/[\r\n]/g, ' ')}\n`);
        for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset);
      } finally {
        closeSync(fd);
      }
      this.#appended++;
      return undefined;
    } catch (error) {
      return this.#fail(error);
    }
  }

  /** Keeps the newest HISTORY_LINES lines: a new file renamed over it, never a write through a link. */
  trim(): void {
    if (this.#appended === 0 || this.#broken !== undefined) return;
    try {
      const read = readOwnFile(this.path, HISTORY_LIMIT_BYTES);
      if (!read || 'problem' in read) return;
      const lines = read.bytes.toString('utf8').split('\n').filter(Boolean);
      if (lines.length > HISTORY_LINES) replaceFileAtomically(this.path, Buffer.from(`${lines.slice(-HISTORY_LINES).join('\n')}\n`), { exactMode: 0o600 });
    } catch {
      // trimming is housekeeping: the next shell tries again
    }
  }

  #fail(error: unknown): string {
    const reason = error instanceof UnsafePathError ? `${error.path}: ${error.message}` : (error as Error).message;
    this.#broken = reason;
    return `shell history off: ${reason}; set XDG_STATE_HOME to a folder of your own`;
  }

  /**
   * The history folder is this user's own real folder, and the nearest existing folder above it not
   * another user's (foreignFolderReason): else nothing is created, chmodded or written there.
   */
  #checkFolders(): void {
    const folder = dirname(this.path);
    const stats = lstatOrUndefined(folder);
    if (stats) {
      if (stats.isSymbolicLink()) throw new UnsafePathError('symlink', folder, 'it is a symbolic link');
      if (!stats.isDirectory()) throw new UnsafePathError('not-regular', folder, 'it is not a folder');
    }
    let above = dirname(folder);
    while (!lstatOrUndefined(above) && dirname(above) !== above) above = dirname(above);
    const foreign = foreignFolderReason(above);
    if (foreign) throw new UnsafePathError('foreign-folder', above, foreign);
    const uid = process.getuid?.();
    if (stats && uid !== undefined && stats.uid !== uid) throw new UnsafePathError('foreign-folder', folder, `it is a folder owned by another user (uid ${stats.uid})`);
  }

  /** Creates the folder (0700) when missing, and makes it 0700 through a descriptor that did not follow a link. */
  #makeFolder(): void {
    this.#checkFolders();
    mkdirSync(dirname(dirname(this.path)), { recursive: true });
    try {
      mkdirSync(dirname(this.path), { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (process.platform === 'win32') return;
    const fd = openSync(dirname(this.path), constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    try {
      const stats = fstatSync(fd);
      const uid = process.getuid?.();
      if (uid !== undefined && stats.uid !== uid) throw new UnsafePathError('foreign-folder', dirname(this.path), `it is a folder owned by another user (uid ${stats.uid})`);
      if ((stats.mode & 0o777) !== 0o700) fchmodSync(fd, 0o700);
    } finally {
      closeSync(fd);
    }
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
