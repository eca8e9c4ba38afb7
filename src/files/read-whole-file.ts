import { readSync } from 'node:fs';

/**
 * The bytes of an open regular file of `size` bytes (its fstat), or undefined when it holds more than
 * `limitBytes`. One byte more than the size is asked for: a file that grew past the limit meanwhile is
 * still refused, never read without bound.
 */
export function readWholeFile(fd: number, size: number, limitBytes: number): Buffer | undefined {
  const buffer = Buffer.alloc(Math.min(size + 1, limitBytes + 1));
  let length = 0;
  while (length < buffer.length) {
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  return length > limitBytes ? undefined : buffer.subarray(0, length);
}
