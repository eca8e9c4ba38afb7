import { UnsafePathError } from '../files/write-file-safely.js';

/**
 * Why a file the user named cannot be written, with what to do: the one wording of every flag that
 * names a file (-o, --html, --junit, --record, --save), after `cannot write [FLAG] PATH: `.
 */
export function explainWriteError(error: unknown): string {
  const reason = (error as Error).message;
  if (error instanceof UnsafePathError) {
    if (error.code === 'symlink') return `${reason}, and toolrun never writes through or replaces one; remove it or name another file`;
    if (error.code === 'not-regular') return `${reason}; name a file`;
    if (error.code === 'foreign') return `${reason}; name a file of your own`;
    if (error.code === 'foreign-folder') return `${reason}; name a file in a folder of your own`;
    if (error.code === 'hard-link') return `${reason}; remove it or name another file`;
    return reason;
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'its folder does not exist; give a file path in an existing, writable folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder, not a regular file; name a file';
  return reason;
}
