import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import type { McpbManifestAny } from '@anthropic-ai/mcpb/browser';
import type { VerifyFinding } from '../verify-types.js';
import { loadBundleToolkit, type BundleToolkit } from './load-toolkit.js';
import { describeManifestIssue, issueField, type ManifestIssue } from './manifest-issue-message.js';

/**
 * A bundle's manifest.json checked as the toolkit's own `mcpb validate` checks it: the zod schema of its
 * manifest_version (MANIFEST_SCHEMAS, anthropics/mcpb src/shared/constants.ts@27083dcf93c4d1c589af6b539ec746e50d6068e7),
 * then what the schema cannot see: the files it names are in the bundle, and the platform is one it supports.
 */

export interface CheckedManifest {
  /** The parsed manifest when it is valid for its manifest_version, else undefined. */
  manifest?: McpbManifestAny;
  manifestVersion?: string;
  /** About the manifest as a whole: it is missing, not JSON, of an unknown version, or fails the schema. */
  fileFindings: VerifyFinding[];
  /** About what it names: missing files, an unsupported platform. */
  findings: VerifyFinding[];
}

const SCHEMA_SOURCE = 'https://github.com/anthropics/mcpb/blob/main/MANIFEST.md';

export async function checkManifest(folder: string, options: { platform: NodeJS.Platform }): Promise<CheckedManifest> {
  const text = await readFile(join(folder, 'manifest.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return invalid(noManifest(folder));
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (parseError) {
    return invalid(error('mcpb/manifest', 'manifest.json', `manifest.json is not JSON (${(parseError as Error).message}): fix its syntax`));
  }
  const toolkit = await loadBundleToolkit();
  const known = Object.keys(toolkit.MANIFEST_SCHEMAS) as (keyof BundleToolkit['MANIFEST_SCHEMAS'])[];
  const manifestVersion = versionOf(raw, known);
  if (!manifestVersion) return invalid(unknownVersion(raw, known));
  const result = toolkit.MANIFEST_SCHEMAS[manifestVersion].safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues as ManifestIssue[];
    return { manifestVersion, fileFindings: issues.flatMap(oneIssuePerKey).map((issue) => schemaFinding(issue, manifestVersion)), findings: [] };
  }
  const manifest = result.data as McpbManifestAny;
  return { manifest, manifestVersion, fileFindings: [], findings: [...missingFiles(manifest, folder), ...platformFindings(manifest, options.platform)] };
}

/**
 * As the toolkit's getManifestVersionFromRawData (src/shared/manifestVersionResolve.ts@27083dcf, not
 * exported by the package): manifest_version if it is a known one, else the deprecated dxt_version.
 */
function versionOf<Version extends string>(raw: unknown, known: Version[]): Version | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const record = raw as Record<string, unknown>;
  return [record.manifest_version, record.dxt_version].find((value): value is Version => typeof value === 'string' && (known as string[]).includes(value));
}

/** A zip of the bundle's folder rather than of its contents puts the manifest one level down: say so. */
function noManifest(folder: string): VerifyFinding {
  const entries = readdirSync(folder, { withFileTypes: true });
  const only = entries.length === 1 && entries[0]!.isDirectory() ? entries[0]!.name : undefined;
  if (only && existsSync(join(folder, only, 'manifest.json'))) {
    return error('mcpb/manifest', 'manifest.json', `manifest.json is in ${only}/, not at the bundle's root: pack the folder's contents (\`mcpb pack ${only}\`), not the folder`);
  }
  return error('mcpb/manifest', 'manifest.json', 'the bundle has no manifest.json at its root: add one (`mcpb init` writes it) and pack again');
}

function unknownVersion(raw: unknown, known: string[]): VerifyFinding {
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const given = record.manifest_version ?? record.dxt_version;
  const versions = known.join(', ');
  if (given === undefined) return error('mcpb/manifest', 'manifest.json:manifest_version', `manifest_version is missing: add "manifest_version": "${known.at(-1)}" (the toolkit knows ${versions})`);
  return error('mcpb/manifest', 'manifest.json:manifest_version', `manifest_version ${JSON.stringify(given)} is not one the bundle toolkit knows (${versions}): set one of them`);
}

/** zod reports all unknown keys of an object in one issue; each gets its own finding, at its own path. */
function oneIssuePerKey(issue: ManifestIssue): ManifestIssue[] {
  if (issue.code !== 'unrecognized_keys' || !issue.keys) return [issue];
  return issue.keys.map((key) => ({ ...issue, path: [...issue.path, key], keys: undefined }));
}

function schemaFinding(issue: ManifestIssue, manifestVersion: string): VerifyFinding {
  const field = issueField(issue.path);
  return { ...error('mcpb/manifest', field === '' ? 'manifest.json' : `manifest.json:${field}`, describeManifestIssue(issue, manifestVersion)), source: SCHEMA_SOURCE };
}

/** Each path the manifest names as a file of the bundle; URLs and `${…}` paths are not files to look for. */
function namedFiles(manifest: McpbManifestAny): { field: string; file: string }[] {
  const named = [{ field: 'server.entry_point', file: manifest.server.entry_point }];
  if (manifest.icon) named.push({ field: 'icon', file: manifest.icon });
  const icons = 'icons' in manifest ? (manifest.icons ?? []) : [];
  icons.forEach((icon, index) => named.push({ field: `icons[${index}].src`, file: icon.src }));
  (manifest.screenshots ?? []).forEach((file, index) => named.push({ field: `screenshots[${index}]`, file }));
  return named.filter(({ file }) => !/^https?:\/\//.test(file) && !file.includes('${'));
}

function missingFiles(manifest: McpbManifestAny, folder: string): VerifyFinding[] {
  return namedFiles(manifest).flatMap(({ field, file }) => {
    const path = `manifest.json:${field}`;
    const inside = relative(folder, join(folder, file));
    if (isAbsolute(file) || inside.startsWith('..')) return [error('mcpb/missing-file', path, `${field} "${file}" is not inside the bundle: give a path relative to the bundle's root`)];
    if (existsSync(join(folder, file))) return [];
    return [error('mcpb/missing-file', path, `${field} names "${file}", which is not in the bundle: add the file before packing, or correct the path`)];
  });
}

function platformFindings(manifest: McpbManifestAny, platform: NodeJS.Platform): VerifyFinding[] {
  const platforms: string[] | undefined = manifest.compatibility?.platforms;
  if (!platforms || platforms.includes(platform)) return [];
  return [
    {
      level: 'warning',
      rule: 'mcpb/platform',
      path: 'manifest.json:compatibility.platforms',
      message: `the bundle declares platforms ${platforms.join(', ')}, not ${platform}, which is checked: check it for one of those (platform option), or add ${platform} if it runs there`,
      source: SCHEMA_SOURCE,
    },
  ];
}

function invalid(finding: VerifyFinding): CheckedManifest {
  return { fileFindings: [finding], findings: [] };
}

function error(rule: string, path: string, message: string): VerifyFinding {
  return { level: 'error', rule, path, message };
}
