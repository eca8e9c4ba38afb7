import { ToolrunError } from '../errors.js';

/**
 * `-o FILE`, `--junit FILE`, `--html FILE`, `--sarif FILE`: the file the user named is written whole
 * or not at all, and replaced only when it is a regular file of this user — never through a symbolic
 * link someone planted under that name (issue #19 item 11), and never into a folder of another user,
 * or a link to one, as `exec -o DIR` refuses (issue #48 item 1: root's report would land there).
 */
export async function writeOutputFile(path: string, bytes: Buffer): Promise<{ replaced: boolean }> {
  const [{ replaceFileAtomically }, { refuseForeignPlace }, { explainWriteError }] = await Promise.all([
    import('../files/write-file-safely.js'),
    import('../files/foreign-folder.js'),
    import('./explain-write-error.js'),
  ]);
  try {
    refuseForeignPlace(path);
    return replaceFileAtomically(path, bytes, { durable: true });
  } catch (error) {
    throw new ToolrunError('tool_error', `cannot write ${path}: ${explainWriteError(error)}`, { cause: error });
  }
}
