import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkManifest } from '../../src/verify/mcpb/check-manifest.js';
import { FIXTURES } from '../helpers/run-toolrun.js';

const MANIFESTS = join(FIXTURES, 'mcpb/manifests');
const check = (name: string, platform: NodeJS.Platform = 'linux') => checkManifest(join(MANIFESTS, name), { platform });

describe('checkManifest', () => {
  it('names the versions the toolkit knows when manifest_version is not one', async () => {
    const checked = await check('unknown-version');
    expect(checked.manifest).toBeUndefined();
    expect(checked.fileFindings).toEqual([
      { level: 'error', rule: 'mcpb/manifest', path: 'manifest.json:manifest_version', message: 'manifest_version "0.9" is not one the bundle toolkit knows (0.1, 0.2, 0.3, 0.4): set one of them' },
    ]);
  });

  it("gives each issue of the version's schema with its field and its fix", async () => {
    const checked = await check('schema-errors');
    expect(checked.manifestVersion).toBe('0.3');
    expect(checked.manifest).toBeUndefined();
    expect(checked.fileFindings.map(({ path, message }) => [path, message])).toEqual([
      ['manifest.json:description', 'description is missing: add it (string), it is required in manifest_version 0.3'],
      ['manifest.json:server.type', 'server.type is "deno": use one of "python", "node", "binary"'],
      ['manifest.json:permissions', 'permissions is not a field of manifest_version 0.3: remove it, or set a manifest_version that has it'],
    ]);
    expect(checked.fileFindings.every((finding) => finding.level === 'error' && finding.rule === 'mcpb/manifest')).toBe(true);
  });

  it('names each file the manifest points to that the bundle lacks (URLs are not files)', async () => {
    const checked = await check('missing-files');
    expect(checked.fileFindings).toEqual([]);
    expect(checked.findings).toEqual([
      {
        level: 'error',
        rule: 'mcpb/missing-file',
        path: 'manifest.json:server.entry_point',
        message: 'server.entry_point names "server/index.js", which is not in the bundle: add the file before packing, or correct the path',
      },
      { level: 'error', rule: 'mcpb/missing-file', path: 'manifest.json:icon', message: 'icon names "icon.png", which is not in the bundle: add the file before packing, or correct the path' },
    ]);
  });

  it('warns when compatibility.platforms leaves out the platform checked', async () => {
    expect((await check('platform-overrides', 'linux')).findings).toEqual([
      {
        level: 'warning',
        rule: 'mcpb/platform',
        path: 'manifest.json:compatibility.platforms',
        message: 'the bundle declares platforms darwin, win32, not linux, which is checked: check it for one of those (platform option), or add linux if it runs there',
        source: 'https://github.com/anthropics/mcpb/blob/main/MANIFEST.md',
      },
    ]);
    expect((await check('platform-overrides', 'darwin')).findings).toEqual([]);
  });

  it('accepts a valid manifest of 0.4 (uv era) and gives it back parsed', async () => {
    const checked = await check('dirs-array');
    expect(checked).toMatchObject({ manifestVersion: '0.4', fileFindings: [], findings: [] });
    expect(checked.manifest?.name).toBe('dirs-array');
  });

  it('says so when the folder has no manifest.json or it is not JSON', async () => {
    expect((await checkManifest(MANIFESTS, { platform: 'linux' })).fileFindings[0]!.message).toBe('the bundle has no manifest.json at its root: add one (`mcpb init` writes it) and pack again');
    const zippedFolder = mkdtempSync(join(tmpdir(), 'toolrun-manifest-'));
    mkdirSync(join(zippedFolder, 'my-server'));
    writeFileSync(join(zippedFolder, 'my-server/manifest.json'), '{}');
    expect((await checkManifest(zippedFolder, { platform: 'linux' })).fileFindings[0]!.message).toBe(
      "manifest.json is in my-server/, not at the bundle's root: pack the folder's contents (`mcpb pack my-server`), not the folder",
    );
    const folder = mkdtempSync(join(tmpdir(), 'toolrun-manifest-'));
    writeFileSync(join(folder, 'manifest.json'), '{"manifest_version": "0.3",');
    const checked = await checkManifest(folder, { platform: 'linux' });
    expect(checked.fileFindings.map(({ rule, path }) => [rule, path])).toEqual([['mcpb/manifest', 'manifest.json']]);
    expect(checked.fileFindings[0]!.message).toMatch(/^manifest\.json is not JSON \(.+\): fix its syntax$/);
  });
});
