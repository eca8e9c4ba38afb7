import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import type { VerifyFinding } from '../verify-types.js';
import { splitSignature } from './bundle-signature.js';
import { entryDataOffset, readZipDirectory, type ZipEntry } from './read-zip-directory.js';

/**
 * A .mcpb unpacked into a fresh temporary folder, or an unpacked bundle (a folder holding
 * manifest.json) read in place. Not the toolkit's unpackExtension (anthropics/mcpb
 * src/cli/unpack.ts@27083dcf): it writes a zip's directory entries as files and fails with EISDIR on
 * any zip made by `zip -r` or Finder (tried on @anthropic-ai/mcpb 2.1.2), has no size or count bound,
 * and writes a symlink entry as a file holding the link's target. Here every entry is checked before a
 * byte is written, and deflate runs with node:zlib's maxOutputLength so an entry cannot grow past what
 * it declares.
 */

export interface UnpackLimits {
  /** Sum of the entries' uncompressed sizes. Default 1 GiB: the largest bundles (a Python runtime with its packages) are a few hundred MB. */
  maxTotalBytes: number;
  /** Default 100,000: a bundled node_modules holds tens of thousands of files. */
  maxFiles: number;
}

export const DEFAULT_UNPACK_LIMITS: UnpackLimits = { maxTotalBytes: 1024 * 1024 * 1024, maxFiles: 100_000 };

export interface UnpackedBundle {
  /** The bundle's root (where manifest.json is); undefined when it could not be unpacked (see findings). */
  folder?: string;
  /** The file carried a signature block (not verified). */
  signed: boolean;
  /** The file's bytes, for its sha256 (undefined for a folder). */
  bytes?: Buffer;
  findings: VerifyFinding[];
  /** Removes the temporary folder; a no-op for a folder read in place. Safe to call twice. */
  dispose: () => Promise<void>;
}

const noDispose = async () => {};

export async function unpackBundle(path: string, limits: Partial<UnpackLimits> = {}): Promise<UnpackedBundle> {
  const bounds = { ...DEFAULT_UNPACK_LIMITS, ...limits };
  const info = await stat(path).catch(() => undefined);
  if (!info) return failed([finding('mcpb/not-found', `${path} does not exist: give the path of a .mcpb file or of an unpacked bundle's folder`)]);
  if (info.isDirectory()) {
    if (!existsSync(join(path, 'manifest.json'))) {
      return failed([finding('mcpb/manifest', `${path} is a folder without manifest.json: give a .mcpb file or the folder of an unpacked bundle (its root holds manifest.json)`)]);
    }
    return { folder: resolve(path), signed: false, findings: [], dispose: noDispose };
  }
  const bytes = await readFile(path);
  const { zip, signed } = splitSignature(bytes);
  const directory = readZipDirectory(zip);
  if (!directory.ok) return { ...failed([finding('mcpb/not-a-zip', `${path} is not a readable bundle: ${directory.problem}; build it with \`mcpb pack\``)]), bytes, signed };
  const problems = checkEntries(directory.entries, bounds);
  if (problems.length > 0) return { ...failed(problems), bytes, signed };

  const folder = await mkdtemp(join(tmpdir(), 'toolrun-mcpb-'));
  const dispose = () => rm(folder, { recursive: true, force: true });
  try {
    const writeProblems = await writeEntries(zip, directory.entries, folder);
    if (writeProblems.length > 0) {
      await dispose();
      return { ...failed(writeProblems), bytes, signed };
    }
  } catch (error) {
    await dispose();
    throw error;
  }
  return { folder, signed, bytes, findings: [], dispose };
}

function checkEntries(entries: ZipEntry[], bounds: UnpackLimits): VerifyFinding[] {
  const problems: VerifyFinding[] = [];
  const files = entries.filter((entry) => !entry.isDirectory);
  if (files.length > bounds.maxFiles) {
    problems.push(finding('mcpb/too-large', `the bundle holds ${files.length} files, over the bound of ${bounds.maxFiles}: raise it (maxFiles) if the bundle is trusted`));
  }
  const total = files.reduce((sum, entry) => sum + entry.size, 0);
  if (total > bounds.maxTotalBytes) {
    problems.push(finding('mcpb/too-large', `the bundle unpacks to ${total} bytes, over the bound of ${bounds.maxTotalBytes}: raise it (maxTotalBytes) if the bundle is trusted`));
  }
  for (const entry of entries) {
    const unsafe = unsafeName(entry.name);
    if (unsafe) problems.push(finding('mcpb/unsafe-entry', `entry "${entry.name}" ${unsafe}: rebuild the bundle with \`mcpb pack\` from the bundle's folder`, entry.name));
    else if (entry.isSymlink)
      problems.push(finding('mcpb/symlink', `entry "${entry.name}" is a symbolic link, which a bundle must not hold: copy the file it points to into the bundle instead`, entry.name));
    else if (entry.encrypted) problems.push(finding('mcpb/unsupported-zip', `entry "${entry.name}" is encrypted: pack the bundle without a password`, entry.name));
    else if (!entry.isDirectory && entry.method !== 0 && entry.method !== 8) {
      problems.push(
        finding('mcpb/unsupported-zip', `entry "${entry.name}" uses zip compression method ${entry.method}; only stored (0) and deflate (8) are read: rebuild with \`mcpb pack\``, entry.name),
      );
    }
  }
  return problems;
}

/** Why a name would land outside the folder, or undefined when it is safe. */
function unsafeName(name: string): string | undefined {
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'has an absolute path';
  if (name.split('/').includes('..')) return 'climbs out of the bundle with ".."';
  if (name.includes('\0')) return 'has a NUL byte in its name';
  return undefined;
}

/**
 * Files written at once. The memory server's bundle (3.9 MB, 2,385 files, 12.7 MB unpacked) unpacked
 * in 1.5-2.5 s one file at a time and 1.0-1.2 s sixteen at a time, on a loaded 2-core machine
 * (inflating is 0.1 s of it; the rest is the file system).
 */
const PARALLEL_WRITES = 16;

async function writeEntries(zip: Buffer, entries: ZipEntry[], folder: string): Promise<VerifyFinding[]> {
  const targets = entries.map((entry) => ({ entry, target: resolve(folder, entry.name) }));
  // unsafeName already refused these; resolving again guards against a case it did not foresee.
  const outside = targets.find(({ target }) => target !== folder && !target.startsWith(folder + sep));
  if (outside) return [finding('mcpb/unsafe-entry', `entry "${outside.entry.name}" lands outside the bundle's folder: rebuild the bundle with \`mcpb pack\``, outside.entry.name)];
  const folders = new Set(targets.map(({ entry, target }) => (entry.isDirectory ? target : dirname(target))));
  for (const path of [...folders].sort()) await mkdir(path, { recursive: true });
  const files = targets.filter(({ entry }) => !entry.isDirectory);
  const problems: VerifyFinding[] = [];
  let next = 0;
  const writeNext = async (): Promise<void> => {
    while (next < files.length && problems.length === 0) {
      const { entry, target } = files[next++]!;
      const content = readEntry(zip, entry);
      if (typeof content === 'string') {
        problems.push(finding('mcpb/not-a-zip', `entry "${entry.name}" ${content}: rebuild the bundle with \`mcpb pack\``, entry.name));
        return;
      }
      await writeFile(target, content);
      // The toolkit's pack stores Unix modes and its unpack restores them: a binary server needs its x bit.
      if (entry.unixMode !== undefined) await chmod(target, entry.unixMode);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_WRITES }, writeNext));
  return problems.slice(0, 1);
}

function readEntry(zip: Buffer, entry: ZipEntry): Buffer | string {
  const start = entryDataOffset(zip, entry);
  if (start === undefined || start + entry.compressedSize > zip.length) return 'is damaged (its local header or data is missing)';
  const data = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data.length === entry.size ? data : `is damaged (stored ${data.length} bytes, declares ${entry.size})`;
  if (entry.size === 0) return Buffer.alloc(0);
  try {
    const content = inflateRawSync(data, { maxOutputLength: entry.size });
    return content.length === entry.size ? content : `is damaged (inflates to ${content.length} bytes, declares ${entry.size})`;
  } catch {
    return `does not inflate within its declared ${entry.size} bytes (damaged, or a zip bomb)`;
  }
}

function failed(findings: VerifyFinding[]): UnpackedBundle {
  return { signed: false, findings, dispose: noDispose };
}

function finding(rule: string, message: string, entry?: string): VerifyFinding {
  return { level: 'error', rule, path: entry ?? '', message };
}
