import { lstatSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolrunError } from '../errors.js';
import { foreignFolderReason } from './foreign-folder.js';
import { describeKind } from './write-file-safely.js';

/**
 * DIR (created as exec -o creates its folder) and the folders below it, one at a time: each must be
 * a folder, not a symbolic link nor another user's (a link planted at DIR/SERVER would otherwise take
 * every file elsewhere: mkdir -p follows it), so nothing is ever created or written outside DIR.
 */
export async function makeFoldersUnder(root: string, segments: string[]): Promise<void> {
  const refuse = (folder: string, why: string) => new ToolrunError('tool_error', `cannot write under ${folder}: ${why}`);
  await mkdir(root, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw refuse(root, error.message);
  });
  const foreign = foreignFolderReason(root);
  if (foreign) throw refuse(root, foreign);
  let folder = root;
  for (const segment of segments) {
    folder = join(folder, segment);
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw refuse(folder, error.message);
    });
    const stats = lstatSync(folder);
    if (!stats.isDirectory() || stats.isSymbolicLink()) throw refuse(folder, `it is ${describeKind(stats)}, not a folder (toolrun writes a skill's files only into folders)`);
    const theirs = foreignFolderReason(folder);
    if (theirs) throw refuse(folder, theirs);
  }
}

/** A percent-encoded URI path segment, decoded (left as it is when it does not decode). */
export const decodeSegment = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** A path segment from a server, made safe to be a file name: never empty, `.` or `..`, no separator or NUL. */
export function safeSegment(segment: string): string {
  const cleaned = segment.replace(/[/\\\0]/g, '_');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? `_${cleaned}_` : cleaned;
}
