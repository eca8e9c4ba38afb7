import { ToolrunError } from '../errors.js';

/**
 * `-o FILE`: the file the user named is written whole or not at all, and replaced only when it is a
 * regular file — never through a symbolic link someone planted under that name (issue #19 item 11).
 */
export async function writeOutputFile(path: string, bytes: Buffer): Promise<{ replaced: boolean }> {
  const [{ replaceFileAtomically }, { explainWriteError }] = await Promise.all([import('../files/write-file-safely.js'), import('./explain-write-error.js')]);
  try {
    return replaceFileAtomically(path, bytes, { durable: true });
  } catch (error) {
    throw new ToolrunError('tool_error', `cannot write ${path}: ${explainWriteError(error)}`, { cause: error });
  }
}
