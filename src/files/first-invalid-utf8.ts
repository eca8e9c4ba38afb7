import { isUtf8 } from 'node:buffer';

/**
 * The byte offset of the first byte that is not valid UTF-8 (a stray byte, a truncated or overlong
 * sequence, a surrogate), or undefined when all of it is. `isUtf8` answers the common case at native
 * speed; the walk runs only for a file that is not UTF-8, to name where.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  if (isUtf8(bytes)) return undefined;
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0 || index + length > bytes.length || !isUtf8(bytes.subarray(index, index + length))) return index;
    index += length;
  }
  return undefined;
}
