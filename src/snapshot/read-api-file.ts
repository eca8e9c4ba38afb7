import { Readable } from 'node:stream';
import { INPUT_LIMIT_BYTES, openInput, readBounded } from '../input/open-input.js';
import { isRecordingStart } from '../record/recording.js';
import { fileStem, parseApiListing } from './read-snapshot.js';
import { readRecordingApi } from './recording-snapshot.js';
import type { ApiSource } from './snapshot-types.js';

/**
 * The API in a file: a recording (SPEC §11) when its first line is a recording header, else a
 * snapshot or a plain tools/list result (parseApiListing). A recording is streamed (it may be
 * gigabytes); a snapshot is read whole, bounded.
 */
export async function readApiFile(path: string, label = path, note?: (message: string) => void): Promise<ApiSource> {
  const stream = await openInput(path, 1 << 18);
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const first = await chunks.next();
  const head = first.done ? Buffer.alloc(0) : Buffer.from(first.value);
  // The chunk read to decide goes back in front of the rest.
  const whole = Readable.from(
    (async function* () {
      if (head.length > 0) yield head;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield Buffer.from(next.value);
    })(),
  );
  if (isRecordingStart(head)) return readRecordingApi(whole, label);
  return { label, snapshot: parseApiListing(await readBounded(whole, INPUT_LIMIT_BYTES), fileStem(path), note) };
}
