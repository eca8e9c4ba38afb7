/**
 * A .mcpb is a zip (anthropics/mcpb MANIFEST.md: "a zip archive"). This reads its central directory
 * (the list of entries with their sizes and Unix modes) without decompressing anything, so the
 * unpacker can refuse a dangerous or oversized bundle before it writes a byte. Layout from PKWARE's
 * APPNOTE.TXT 6.3.10 (https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT), sections 4.3.7
 * (local header), 4.3.12 (central directory header), 4.3.16 (end of central directory record).
 */

export interface ZipEntry {
  /** As stored, `/`-separated (a `\` written by a Windows zipper is read as `/`). */
  name: string;
  /** 0 stored, 8 deflated; anything else is refused by the unpacker. */
  method: number;
  compressedSize: number;
  /** As declared; the unpacker holds the entry to it. */
  size: number;
  localHeaderOffset: number;
  /** Unix permission bits when a Unix zipper wrote them, else undefined. */
  unixMode?: number;
  isDirectory: boolean;
  isSymlink: boolean;
  encrypted: boolean;
}

export type ZipDirectory = { ok: true; entries: ZipEntry[] } | { ok: false; problem: string };

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_HEADER = 0x02014b50;
/** The end record is 22 bytes plus a comment of at most 65,535. */
const MAX_END_SEARCH = 22 + 0xffff;
const MADE_BY_UNIX = 3;
const FILE_TYPE_MASK = 0o170000;
const SYMLINK_TYPE = 0o120000;

export function readZipDirectory(zip: Buffer): ZipDirectory {
  const end = findEndOfDirectory(zip);
  if (end < 0) return { ok: false, problem: 'no zip end-of-directory record (the file is not a zip, or is cut short)' };
  const count = zip.readUInt16LE(end + 10);
  const directorySize = zip.readUInt32LE(end + 12);
  const directoryOffset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff) {
    return { ok: false, problem: 'a Zip64 archive (over 65,535 entries or 4 GiB), which toolrun does not read' };
  }
  if (directoryOffset + directorySize > end) return { ok: false, problem: 'its central directory points past the end of the file (a damaged zip)' };
  const entries: ZipEntry[] = [];
  let offset = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== DIRECTORY_HEADER) {
      return { ok: false, problem: `entry ${index + 1} of ${count} in its central directory is damaged` };
    }
    const madeBy = zip.readUInt16LE(offset + 4) >> 8;
    const flags = zip.readUInt16LE(offset + 8);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const mode = zip.readUInt32LE(offset + 38) >>> 16;
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength).replaceAll('\\', '/');
    const isUnix = madeBy === MADE_BY_UNIX && mode !== 0;
    entries.push({
      name,
      method: zip.readUInt16LE(offset + 10),
      compressedSize: zip.readUInt32LE(offset + 20),
      size: zip.readUInt32LE(offset + 24),
      localHeaderOffset: zip.readUInt32LE(offset + 42),
      unixMode: isUnix ? mode & 0o777 : undefined,
      isDirectory: name.endsWith('/'),
      isSymlink: isUnix && (mode & FILE_TYPE_MASK) === SYMLINK_TYPE,
      encrypted: (flags & 1) === 1,
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return { ok: true, entries };
}

/** Where an entry's bytes start: after its local header, whose name and extra field may differ in length from the central one's. */
export function entryDataOffset(zip: Buffer, entry: ZipEntry): number | undefined {
  const at = entry.localHeaderOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== 0x04034b50) return undefined;
  return at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
}

function findEndOfDirectory(zip: Buffer): number {
  const lowest = Math.max(0, zip.length - MAX_END_SEARCH);
  for (let at = zip.length - 22; at >= lowest; at--) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  return -1;
}
