import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { splitSignature } from '../../src/verify/mcpb/bundle-signature.js';
import { readZipDirectory } from '../../src/verify/mcpb/read-zip-directory.js';
import { DEFAULT_UNPACK_LIMITS, unpackBundle, type UnpackedBundle } from '../../src/verify/mcpb/unpack-bundle.js';
import { FIXTURES } from '../helpers/run-toolrun.js';

const ZIPS = join(FIXTURES, 'mcpb');
const opened: UnpackedBundle[] = [];
async function unpack(name: string, limits = {}) {
  const bundle = await unpackBundle(join(ZIPS, name), limits);
  opened.push(bundle);
  return bundle;
}
afterEach(async () => {
  for (const bundle of opened.splice(0)) await bundle.dispose();
});

describe('unpackBundle', () => {
  it('unpacks a zip with folder entries (as `zip -r` writes) and keeps the Unix modes', async () => {
    const bundle = await unpack('with-folders.mcpb');
    expect(bundle.findings).toEqual([]);
    expect(bundle.signed).toBe(false);
    expect(readFileSync(join(bundle.folder!, 'server/index.js'), 'utf8')).toBe("console.log('hi');\n");
    expect(statSync(join(bundle.folder!, 'server/index.js')).mode & 0o777).toBe(0o755);
    expect(statSync(join(bundle.folder!, 'manifest.json')).mode & 0o777).toBe(0o644);
  });

  it('removes its folder on dispose, and a second dispose is harmless', async () => {
    const bundle = await unpack('with-folders.mcpb');
    await bundle.dispose();
    expect(existsSync(bundle.folder!)).toBe(false);
    await bundle.dispose();
  });

  it('refuses an entry that climbs out with ../ and writes nothing', async () => {
    const bundle = await unpack('dot-dot.mcpb');
    expect(bundle.folder).toBeUndefined();
    expect(bundle.findings).toEqual([
      {
        level: 'error',
        rule: 'mcpb/unsafe-entry',
        path: 'server/../../evil',
        message: 'entry "server/../../evil" climbs out of the bundle with "..": rebuild the bundle with `mcpb pack` from the bundle\'s folder',
      },
    ]);
  });

  it('refuses an absolute entry', async () => {
    const bundle = await unpack('absolute.mcpb');
    expect(bundle.folder).toBeUndefined();
    expect(bundle.findings.map((finding) => [finding.rule, finding.path, finding.message])).toEqual([
      ['mcpb/unsafe-entry', '/tmp/evil', 'entry "/tmp/evil" has an absolute path: rebuild the bundle with `mcpb pack` from the bundle\'s folder'],
    ]);
  });

  it('refuses a symbolic link', async () => {
    const bundle = await unpack('symlink.mcpb');
    expect(bundle.folder).toBeUndefined();
    expect(bundle.findings).toEqual([
      {
        level: 'error',
        rule: 'mcpb/symlink',
        path: 'server/index.js',
        message: 'entry "server/index.js" is a symbolic link, which a bundle must not hold: copy the file it points to into the bundle instead',
      },
    ]);
  });

  it('gives one finding for a file that is not a zip', async () => {
    const bundle = await unpack('not-a-zip.mcpb');
    expect(bundle.folder).toBeUndefined();
    expect(bundle.findings).toEqual([
      {
        level: 'error',
        rule: 'mcpb/not-a-zip',
        path: '',
        message: `${join(ZIPS, 'not-a-zip.mcpb')} is not a readable bundle: no zip end-of-directory record (the file is not a zip, or is cut short); build it with \`mcpb pack\``,
      },
    ]);
  });

  it('holds the bounds on size and file count, and they can be raised', async () => {
    expect(DEFAULT_UNPACK_LIMITS).toEqual({ maxTotalBytes: 1024 ** 3, maxFiles: 100_000 });
    const small = await unpack('with-folders.mcpb', { maxTotalBytes: 100, maxFiles: 1 });
    expect(small.folder).toBeUndefined();
    expect(small.findings.map((finding) => finding.message)).toEqual([
      'the bundle holds 2 files, over the bound of 1: raise it (maxFiles) if the bundle is trusted',
      'the bundle unpacks to 360 bytes, over the bound of 100: raise it (maxTotalBytes) if the bundle is trusted',
    ]);
    expect((await unpack('with-folders.mcpb', { maxTotalBytes: 360, maxFiles: 2 })).findings).toEqual([]);
  });

  it('reads a folder holding manifest.json in place, and dispose leaves it', async () => {
    const folder = join(ZIPS, 'manifests/dirs-array');
    const bundle = await unpackBundle(folder);
    expect(bundle).toMatchObject({ folder, signed: false, findings: [] });
    await bundle.dispose();
    expect(existsSync(join(folder, 'manifest.json'))).toBe(true);
  });

  it('names a folder without manifest.json and a path that does not exist', async () => {
    expect((await unpackBundle(join(ZIPS, 'manifests'))).findings[0]!.message).toBe(
      `${join(ZIPS, 'manifests')} is a folder without manifest.json: give a .mcpb file or the folder of an unpacked bundle (its root holds manifest.json)`,
    );
    expect((await unpackBundle(join(ZIPS, 'nope.mcpb'))).findings[0]!.message).toBe(`${join(ZIPS, 'nope.mcpb')} does not exist: give the path of a .mcpb file or of an unpacked bundle's folder`);
  });

  it('refuses an entry that inflates past the size it declares', async () => {
    const zip = readFileSync(join(ZIPS, 'with-folders.mcpb'));
    const entries = readZipDirectory(zip);
    if (!entries.ok) throw new Error(entries.problem);
    const manifest = entries.entries.find((entry) => entry.name === 'manifest.json')!;
    // Declare 10 bytes where 341 are deflated: in the central directory (uncompressed size at +24 of its header).
    const lying = Buffer.from(zip);
    lying.writeUInt32LE(10, findCentralHeader(lying, 'manifest.json') + 24);
    const path = join(mkdtempSync(join(tmpdir(), 'toolrun-zip-')), 'lying.mcpb');
    writeFileSync(path, lying);
    const bundle = await unpackBundle(path);
    opened.push(bundle);
    expect(manifest.size).toBe(341);
    expect(bundle.folder).toBeUndefined();
    expect(bundle.findings.map((finding) => finding.message)).toEqual([
      'entry "manifest.json" does not inflate within its declared 10 bytes (damaged, or a zip bomb): rebuild the bundle with `mcpb pack`',
    ]);
  });
});

describe('splitSignature', () => {
  it('finds the signature block the toolkit appends and gives the zip before it', () => {
    const zip = readFileSync(join(ZIPS, 'with-folders.mcpb'));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(3);
    const signed = Buffer.concat([zip, Buffer.from('MCPB_SIG_V1'), length, Buffer.from([1, 2, 3]), Buffer.from('MCPB_SIG_END')]);
    expect(splitSignature(signed)).toEqual({ zip, signed: true });
    expect(splitSignature(zip)).toEqual({ zip, signed: false });
  });
});

/** The offset of the central directory header whose name is `name`. */
function findCentralHeader(zip: Buffer, name: string): number {
  for (let at = 0; at < zip.length - 46; at++) {
    if (zip.readUInt32LE(at) === 0x02014b50 && zip.toString('utf8', at + 46, at + 46 + zip.readUInt16LE(at + 28)) === name) return at;
  }
  throw new Error(`no central header for ${name}`);
}
