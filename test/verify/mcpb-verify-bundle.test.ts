import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPOSED_AS } from '../../src/verify/mcpb/expand-config.js';
import { verifyBundle } from '../../src/verify/mcpb/verify-bundle.js';
import { FIXTURES } from '../helpers/run-toolrun.js';

const MCPB = join(FIXTURES, 'mcpb');
const WITH_FOLDERS = join(MCPB, 'with-folders.mcpb');
/** sha256sum fixtures/mcpb/with-folders.mcpb */
const WITH_FOLDERS_SHA256 = '796b3d2fdd97701c2907dddb8401cb1f53830fdf2e7ad1751cd1020c91a0f8d3';

describe('verifyBundle', () => {
  it('reports a good bundle as one entry with its composed launch, and dispose removes the unpacked folder', async () => {
    const { report, dispose } = await verifyBundle(WITH_FOLDERS, { userConfig: {}, platform: 'linux', expectedSha256: WITH_FOLDERS_SHA256 });
    try {
      const entry = report.entries[0]!;
      expect(report).toMatchObject({ file: WITH_FOLDERS, format: 'mcpb', name: 'zipped', version: '1.0.0', findings: [] });
      expect(report.entries).toHaveLength(1);
      expect(entry).toMatchObject({ id: 'bundle', kind: 'mcpb', label: 'bundle zipped 1.0.0', composedAs: COMPOSED_AS });
      expect(entry.findings.map((finding) => finding.rule)).toEqual(['mcpb/node-runtime']);
      const launch = entry.launch!;
      if (launch.transport !== 'stdio') throw new Error('not stdio');
      expect(launch.command).toBe(process.execPath);
      expect(launch.args).toHaveLength(1);
      expect(readFileSync(launch.args[0]!, 'utf8')).toBe("console.log('hi');\n");
    } finally {
      await dispose();
    }
  });

  it('accepts fileSha256 in capitals or with 0x, and is an error on a mismatch', async () => {
    const upper = await verifyBundle(WITH_FOLDERS, { userConfig: {}, expectedSha256: `0x${WITH_FOLDERS_SHA256.toUpperCase()}` });
    await upper.dispose();
    expect(upper.report.findings).toEqual([]);
    const wrong = await verifyBundle(WITH_FOLDERS, { userConfig: {}, expectedSha256: '0'.repeat(64) });
    await wrong.dispose();
    expect(wrong.report.findings).toEqual([
      {
        level: 'error',
        rule: 'mcpb/sha256',
        path: '',
        message: `the file's sha256 is ${WITH_FOLDERS_SHA256}, not the expected ${'0'.repeat(64)}: publish this file's hash as fileSha256, or download the bundle again`,
        source: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json (Package.fileSha256)',
      },
    ]);
    // The bundle itself is fine: its entry still has its launch.
    expect(wrong.report.entries[0]!.launch).toBeDefined();
  });

  it('notes a signature block without verifying it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'toolrun-signed-'));
    const signed = join(folder, 'signed.mcpb');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(2);
    writeFileSync(signed, Buffer.concat([readFileSync(WITH_FOLDERS), Buffer.from('MCPB_SIG_V1'), length, Buffer.from([7, 7]), Buffer.from('MCPB_SIG_END')]));
    const { report, dispose } = await verifyBundle(signed, { userConfig: {} });
    await dispose();
    expect(report.findings).toEqual([
      {
        level: 'note',
        rule: 'mcpb/signed',
        path: '',
        message: "the bundle carries a signature block (PKCS#7), not verified here: check it with `mcpb verify` where the publisher's certificate chain can be trusted",
      },
    ]);
    expect(report.name).toBe('zipped');
  });

  it('puts a manifest that fails in the file findings, and composes nothing', async () => {
    const { report, dispose } = await verifyBundle(join(MCPB, 'manifests/unknown-version'), { userConfig: {}, expectedSha256: WITH_FOLDERS_SHA256 });
    await dispose();
    expect(report.findings.map(({ level, rule, path }) => [level, rule, path])).toEqual([
      ['warning', 'mcpb/sha256', ''],
      ['error', 'mcpb/manifest', 'manifest.json:manifest_version'],
    ]);
    expect(report.entries).toEqual([{ id: 'bundle', kind: 'mcpb', label: 'bundle', composedAs: COMPOSED_AS, findings: [] }]);
    expect(report.name).toBeUndefined();
  });

  it('puts an unreadable file in the file findings', async () => {
    const { report } = await verifyBundle(join(MCPB, 'symlink.mcpb'), { userConfig: {} });
    expect(report.findings.map((finding) => finding.rule)).toEqual(['mcpb/symlink']);
    expect(report.entries[0]!.launch).toBeUndefined();
  });

  it('puts user_config problems on the entry', async () => {
    const { report, dispose } = await verifyBundle(join(MCPB, 'manifests/required-user-config'), { userConfig: {}, platform: 'linux' });
    await dispose();
    expect(report.findings).toEqual([]);
    expect(report.entries[0]!.findings.map(({ level, rule, path }) => [level, rule, path])).toEqual([['error', 'mcpb/user-config', 'manifest.json:user_config.api_key']]);
    expect(report.entries[0]!.launch).toBeUndefined();
  });
});
