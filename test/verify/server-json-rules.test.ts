import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { looksLikeVersionRange } from '../../src/verify/server-json/publisher-rules.js';
import { verifyServerJson } from '../../src/verify/server-json/verify-server-json.js';
import { maskKnownSecrets } from '../../src/secrets/mask-secrets.js';
import type { VerifyReport } from '../../src/verify/verify-types.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures/verify/server-json', name), 'utf8');

/** `level rule path` of the file's findings, then of each entry's. */
function summary(report: VerifyReport): Record<string, string[]> {
  const line = (finding: { level: string; rule: string; path: string }) => `${finding.level} ${finding.rule} ${finding.path}`;
  return Object.fromEntries([['file', report.findings.map(line)], ...report.entries.map((entry) => [entry.id, entry.findings.map(line)])]);
}

describe("mcp-publisher's offline rules (fixtures/verify/server-json/publisher-rules.json: passes the schema)", () => {
  const report = verifyServerJson(fixture('publisher-rules.json'), 'server.json', { inputs: {} });

  it('no schema error: each problem is a publisher rule, on the entry it belongs to', () => {
    expect(summary(report)).toEqual({
      file: ['error server-json/version-range version'],
      'packages[0]': [
        'warning vscode/package-transport-ignored packages[0].transport',
        'error server-json/version-range packages[0].version',
        'error server-json/invalid-named-argument-name packages[0].packageArguments[0].name',
        'error server-json/argument-value-starts-with-name packages[0].packageArguments[1].value',
        'error server-json/invalid-templated-url packages[0].transport.url',
      ],
      'packages[1]': ['error server-json/oci-no-version packages[1].version', 'error server-json/oci-no-registry-url packages[1].registryBaseUrl'],
      'packages[2]': ['note server-json/mcpb-launch-unknown packages[2]', 'error server-json/mcpb-file-sha256-required packages[2].fileSha256'],
      'remotes[0]': ['error server-json/remote-url-namespace-mismatch remotes[0].url'],
    });
  });

  it('each message names the field and the fix, and cites where the registry says it', () => {
    const messages = Object.fromEntries(report.entries.flatMap((entry) => entry.findings).map((finding) => [finding.rule, [finding.message, finding.source]]));
    expect(messages['server-json/invalid-templated-url']).toEqual([
      'packages[0].transport.url uses {port}, which the package does not declare: add an environment variable or argument named port, or write the value',
      'modelcontextprotocol/registry internal/validators/validators.go',
    ]);
    expect(messages['server-json/oci-no-version']).toEqual([
      'packages[1].version is not accepted for OCI images: put the tag in identifier (docker.io/owner/image:1.2.0) and remove version',
      'modelcontextprotocol/registry internal/validators/registries/oci.go@90f9ee8a',
    ]);
    expect(messages['server-json/remote-url-namespace-mismatch']?.[0]).toBe(
      'remotes[0].url host api.weather-elsewhere.net is not example.com or under it (the namespace com.example): serve it under example.com or publish under net.weather-elsewhere.api/…',
    );
  });

  it('an mcpb package has no launch (it is inside the bundle)', () => {
    expect(report.entries[2]).toMatchObject({ id: 'packages[2]', kind: 'mcpb' });
    expect(report.entries[2].launch).toBeUndefined();
  });

  it('a registryType no host installs: a file error, and no entry to launch', () => {
    const text = JSON.stringify({ name: 'com.example/xy', description: 'd', version: '1.0.0', packages: [{ registryType: 'cargo', identifier: 'x', version: '1.0.0', transport: { type: 'stdio' } }] });
    const report = verifyServerJson(text, 'server.json', { inputs: {} });
    expect(report.entries).toEqual([]);
    expect(report.findings.filter((finding) => finding.level === 'error').map((finding) => finding.message)).toEqual([
      "packages[0].registryType 'cargo' is not one hosts install: use npm, pypi, oci, nuget or mcpb",
    ]);
  });

  it('version ranges as the registry detects them, and exact versions left alone', () => {
    for (const range of ['^1.2.3', '~1.2', '>=1.0.0', '1.x', '1.2.*', '1.2.3 - 2.0.0', '1.2 || 1.3']) expect(looksLikeVersionRange(range)).toBe(true);
    for (const exact of ['1.2.3', '0.4.0-beta', 'v2.0.0', '2025.1.1', '']) expect(looksLikeVersionRange(exact)).toBe(false);
  });

  it('name: more than one slash, and a namespace that ends in a dot', () => {
    const named = (name: string) =>
      verifyServerJson(JSON.stringify({ $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json', name, description: 'd', version: '1.0.0' }), 'server.json', {
        inputs: {},
      }).findings.map((finding) => `${finding.rule}: ${finding.message}`);
    expect(named('io.github.a/b/c')).toEqual([
      'schema: name: "io.github.a/b/c" does not match ^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$: use reverse-DNS namespace, one slash, then the name (io.github.owner/server)',
    ]);
    expect(named('io.github./server')).toEqual([
      "server-json/invalid-server-name: name 'io.github./server': namespace and name must each be 2 characters or more, start and end with a letter or digit (dots, hyphens inside; underscores too in the name): rename it",
    ]);
  });
});

describe('what a host does with it (fixtures/verify/server-json/host-divergence.json)', () => {
  it('without --input: each required input is an error naming the --input to give; fields VS Code ignores are warnings', () => {
    const report = verifyServerJson(fixture('host-divergence.json'), 'server.json', { inputs: {} });
    expect(summary(report)).toEqual({
      file: [],
      'packages[0]': [
        'warning vscode/runtime-hint-ignored packages[0].runtimeHint',
        'warning vscode/repeated-ignored packages[0].packageArguments[0].isRepeated',
        'error server-json/required-input-missing packages[0].environmentVariables[0]',
        'error server-json/required-input-missing packages[0].packageArguments[0].variables.table',
      ],
      'remotes[0]': [],
      'remotes[1]': ['warning vscode/remote-unused remotes[1]'],
    });
    const messages = report.entries[0].findings.map((finding) => finding.message);
    expect(messages).toContain("VS Code ignores runtimeHint 'podman': it runs docker; a user who needs podman must edit the entry");
    expect(messages).toContain('packages[0].environmentVariables[0] (DB_PASSWORD) is required and has no default: give it with --input DB_PASSWORD=…');
  });

  it('with --input: the launch as docker gets it; the secret stays in env, never in a message, and is masked wherever toolrun prints', () => {
    const report = verifyServerJson(fixture('host-divergence.json'), 'server.json', { inputs: { DB_PASSWORD: 'hunter2-secret', table: 'orders' } });
    expect(report.entries[0].launch).toEqual({
      transport: 'stdio',
      command: 'docker',
      args: ['run', '-i', '--rm', '-e', 'DB_PASSWORD', 'docker.io/example/db:2.0.0', '--table', 'orders'],
      env: { DB_PASSWORD: 'hunter2-secret' },
    });
    expect(JSON.stringify(report.entries.flatMap((entry) => entry.findings))).not.toContain('hunter2-secret');
    expect(maskKnownSecrets('password hunter2-secret rejected')).toBe('password *** rejected');
    expect(report.entries[0].findings.filter((finding) => finding.level === 'error')).toEqual([]);
  });

  it('an unanswered optional prompt is composed empty, with a warning', () => {
    const text = JSON.stringify({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'com.example/xy',
      description: 'd',
      version: '1.0.0',
      packages: [{ registryType: 'npm', identifier: 'x', version: '1.0.0', transport: { type: 'stdio' }, environmentVariables: [{ name: 'REGION', description: 'Region' }] }],
    });
    const entry = verifyServerJson(text, 'server.json', { inputs: {} }).entries[0];
    expect(entry.launch).toEqual({ transport: 'stdio', command: 'npx', args: ['x@1.0.0'], env: { REGION: '' } });
    expect(entry.findings.map((finding) => finding.message)).toEqual(['packages[0].environmentVariables[0] (REGION) has no default and no --input: composed as empty; give it with --input REGION=…']);
  });
});
