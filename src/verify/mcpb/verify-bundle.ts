import { createHash } from 'node:crypto';
import type { VerifyEntry, VerifyFinding, VerifyReport } from '../verify-types.js';
import { checkManifest } from './check-manifest.js';
import { COMPOSED_AS, expandLaunch } from './expand-config.js';
import { unpackBundle, type UnpackLimits } from './unpack-bundle.js';

export interface VerifyBundleOptions {
  /** The user's values for the manifest's user_config (`--user-config X=VALUE`); a `multiple` one as an array or a path-list string. */
  userConfig: Record<string, string | string[]>;
  /** The platform the bundle is checked for (its overrides, its separators); default the current one. */
  platform?: NodeJS.Platform;
  /** A server.json's `fileSha256` for this bundle: the file must hash to it. */
  expectedSha256?: string;
  /** Bounds on what the bundle may unpack to (DEFAULT_UNPACK_LIMITS otherwise). */
  limits?: Partial<UnpackLimits>;
}

/**
 * A .mcpb (or an unpacked bundle's folder) checked as Claude Desktop would install it: unpacked,
 * its manifest validated with the toolkit's schema, the files it names present, its launch composed.
 * The caller launches `entries[0].launch` and calls dispose() when done (the launch runs from the
 * unpacked folder, so not before).
 */
export async function verifyBundle(path: string, options: VerifyBundleOptions): Promise<{ report: VerifyReport; dispose: () => Promise<void> }> {
  const platform = options.platform ?? process.platform;
  const unpacked = await unpackBundle(path, options.limits);
  const fileFindings: VerifyFinding[] = [...checkSha256(unpacked.bytes, options.expectedSha256), ...unpacked.findings];
  if (unpacked.signed) {
    fileFindings.push({
      level: 'note',
      rule: 'mcpb/signed',
      path: '',
      message: "the bundle carries a signature block (PKCS#7), not verified here: check it with `mcpb verify` where the publisher's certificate chain can be trusted",
    });
  }
  const entry: VerifyEntry = { id: 'bundle', kind: 'mcpb', label: 'bundle', composedAs: COMPOSED_AS, findings: [] };
  const report: VerifyReport = { file: path, format: 'mcpb', findings: fileFindings, entries: [entry] };
  if (!unpacked.folder) return { report, dispose: unpacked.dispose };

  const checked = await checkManifest(unpacked.folder, { platform });
  fileFindings.push(...checked.fileFindings);
  entry.findings.push(...checked.findings);
  if (checked.manifest) {
    report.name = checked.manifest.name;
    report.version = checked.manifest.version;
    entry.label = `bundle ${checked.manifest.name} ${checked.manifest.version}`;
    const expanded = await expandLaunch(checked.manifest, { folder: unpacked.folder, userConfig: options.userConfig, platform });
    entry.launch = expanded.launch;
    entry.findings.push(...expanded.findings);
  }
  return { report, dispose: unpacked.dispose };
}

/**
 * As VS Code compares a downloaded bundle with its server.json's fileSha256: lowercased, a leading 0x
 * dropped (microsoft/vscode src/vs/platform/mcp/node/mcpManagementService.ts@3371e5b7).
 */
function checkSha256(bytes: Buffer | undefined, expected: string | undefined): VerifyFinding[] {
  if (expected === undefined) return [];
  if (!bytes) {
    return [{ level: 'warning', rule: 'mcpb/sha256', path: '', message: 'fileSha256 is given but a folder has no file hash: give the .mcpb file itself to check it' }];
  }
  const actual = createHash('sha256').update(bytes).digest('hex');
  const wanted = expected.toLowerCase().replace(/^0x/, '');
  if (actual === wanted) return [];
  return [
    {
      level: 'error',
      rule: 'mcpb/sha256',
      path: '',
      message: `the file's sha256 is ${actual}, not the expected ${wanted}: publish this file's hash as fileSha256, or download the bundle again`,
      source: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json (Package.fileSha256)',
    },
  ];
}
