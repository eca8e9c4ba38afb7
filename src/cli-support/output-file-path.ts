import { existsSync, lstatSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { refuseForeignPlace } from '../files/foreign-folder.js';
import { describeKind, UnsafePathError } from '../files/write-file-safely.js';
import { explainWriteError } from './explain-write-error.js';

/**
 * The absolute path of a report file a flag names (`--html FILE`), checked before any work: a folder
 * that does not exist is exit 2 at once, not after a 2-minute run whose report then has nowhere to go.
 */
export function resolveOutputPath(cwd: string, flag: string, file: string): string {
  const path = resolve(cwd, file);
  if (!existsSync(dirname(path))) throw new UsageError(`${flag} ${file}: the folder ${dirname(path)} does not exist`);
  return path;
}

/**
 * resolveOutputPath for a file toolrun will write (`--junit`, `--html`, `--sarif`, `--from`'s `-o`):
 * a symbolic link, folder or device under that name, a folder of another user, their link to one, or
 * their file there is exit 2 before any work too, not a refused write after the run (writeOutputFile checks again when it writes).
 */
export function resolveWritablePath(cwd: string, flag: string, file: string): string {
  const path = resolveOutputPath(cwd, flag, file);
  try {
    const existing = lstatSync(path, { throwIfNoEntry: false });
    if (existing?.isSymbolicLink()) throw new UnsafePathError('symlink', path, 'it is a symbolic link');
    if (existing && !existing.isFile()) throw new UnsafePathError('not-regular', path, `it is ${describeKind(existing)}, not a regular file`);
    refuseForeignPlace(path);
  } catch (error) {
    if (!(error instanceof UnsafePathError)) throw error;
    throw new UsageError(`cannot write ${flag} ${file}: ${explainWriteError(error)}`);
  }
  return path;
}
