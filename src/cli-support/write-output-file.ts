import { ToolrunError } from '../errors.js';

/**
 * `-o FILE`: the file the user named is written whole or not at all, and replaced only when it is a
 * regular file — never through a symbolic link someone planted under that name (issue #19 item 11).
 */
export async function writeOutputFile(path: string, bytes: Buffer): Promise<{ replaced: boolean }> {
  const { replaceFileAtomically, UnsafePathError } = await import('../files/write-file-safely.js');
  try {
    return replaceFileAtomically(path, bytes, { durable: true });
  } catch (error) {
    let reason = (error as Error).message;
    if (error instanceof UnsafePathError && error.code === 'symlink') reason += ', and toolrun never writes through or replaces one; remove it or name another file';
    else if (error instanceof UnsafePathError && error.code === 'not-regular') reason += '; name a file';
    else if ((error as NodeJS.ErrnoException).code === 'EACCES') reason = 'permission denied';
    throw new ToolrunError('tool_error', `cannot write ${path}: ${reason}`, { cause: error });
  }
}
