import type { Readable } from 'node:stream';
import { NotARecordingError, UsageError } from '../errors.js';
import { openInput } from '../input/open-input.js';

/** Opens a recording and reads it with `read`; a missing, unreadable or malformed file is a one-line usage error (exit 2). */
export async function readRecordingFile<T>(file: string, read: (stream: Readable) => Promise<T>): Promise<T> {
  try {
    return await read(await openInput(file, 1 << 18));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`recording not found: ${file}; check the path`);
    if (code === 'EISDIR') throw new UsageError(`${file} is a folder, not a recording`);
    if (code === 'EACCES') throw new UsageError(`recording not readable: ${file} (permission denied)`);
    if (error instanceof NotARecordingError) throw new UsageError(`${file}: ${error.message}`);
    throw error;
  }
}
