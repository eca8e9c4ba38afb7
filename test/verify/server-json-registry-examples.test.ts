import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyServerJson } from '../../src/verify/server-json/verify-server-json.js';
import type { VerifyFinding, VerifyReport } from '../../src/verify/verify-types.js';

// The registry's own examples (fixtures/verify/registry-examples/README.md): "Each file under
// examples/valid must validate cleanly; each file under examples/invalid must fail at least one constraint."
const FOLDER = join(import.meta.dirname, '../../fixtures/verify/registry-examples');

function verify(kind: 'valid' | 'invalid', name: string, inputs: Record<string, string> = {}): VerifyReport {
  return verifyServerJson(readFileSync(join(FOLDER, kind, name), 'utf8'), name, { inputs });
}

function allFindings(report: VerifyReport): VerifyFinding[] {
  return [...report.findings, ...report.entries.flatMap((entry) => entry.findings)];
}

const errorsOf = (report: VerifyReport) => allFindings(report).filter((finding) => finding.level === 'error');

describe("the MCP Registry's valid examples", () => {
  it('are all here', () => {
    expect(readdirSync(join(FOLDER, 'valid')).sort()).toEqual(['minimal.json', 'with-package.json', 'with-remote.json']);
  });

  it('minimal.json: no finding at all, validated against the 2025-12-11 schema it names', () => {
    const report = verify('valid', 'minimal.json');
    expect(report).toEqual({
      file: 'minimal.json',
      format: 'server.json',
      schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'io.github.user/weather',
      version: '1.0.2',
      findings: [],
      entries: [],
    });
  });

  it('with-package.json: no error once the required secret is given; composed as VS Code composes it', () => {
    const report = verify('valid', 'with-package.json', { API_KEY: 'sk-test-123456' });
    expect(errorsOf(report)).toEqual([]);
    expect(report.entries[0].launch).toEqual({
      transport: 'stdio',
      command: 'npx',
      args: ['@modelcontextprotocol/server-weather@1.0.0', 'config_path', '--port', '8080'],
      env: { API_KEY: 'sk-test-123456' },
    });
    expect(report.entries[0].findings.map((finding) => finding.rule)).toEqual(['vscode/value-hint-literal', 'vscode/no-prompt']);
  });

  it('with-package.json without --input: the required API_KEY VS Code leaves empty is the one error', () => {
    expect(errorsOf(verify('valid', 'with-package.json'))).toEqual([
      {
        level: 'error',
        rule: 'server-json/required-input-missing',
        path: 'packages[0].environmentVariables[0]',
        message: 'packages[0].environmentVariables[0] (API_KEY) is required and has no default: give it with --input API_KEY=… (and add a description so hosts prompt for it)',
      },
    ]);
  });

  it('with-remote.json: no error once Authorization is given; the templated host and the website are warnings', () => {
    const report = verify('valid', 'with-remote.json', { Authorization: 'Bearer abcdefgh12345' });
    expect(errorsOf(report)).toEqual([]);
    expect(allFindings(report).map((finding) => `${finding.level} ${finding.rule} ${finding.path}`)).toEqual([
      'warning server-json/website-url-namespace-mismatch websiteUrl',
      'warning vscode/remote-url-template remotes[0].url',
      'warning vscode/no-prompt remotes[0].headers[0]',
      'warning server-json/remote-host-templated remotes[0].url',
    ]);
    expect(report.entries[0].launch).toEqual({ transport: 'streamable-http', url: 'https://{host}/mcp', headers: { Authorization: 'Bearer abcdefgh12345' } });
  });
});

describe("the MCP Registry's invalid examples each fail, with the expected error", () => {
  const expected: Record<string, { path: string; message: string }> = {
    'bad-name-pattern.json': {
      path: 'name',
      message: 'name: "no-namespace-separator" does not match ^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$: use reverse-DNS namespace, one slash, then the name (io.github.owner/server)',
    },
    'description-too-long.json': { path: 'description', message: 'description is 111 characters, at most 100 allowed: shorten it' },
    'missing-name.json': { path: 'name', message: 'name is missing: add it (the schema requires it)' },
    'package-version-latest.json': { path: 'packages[0].version', message: "packages[0].version: 'latest' is not allowed: give the exact version published" },
    'positional-argument-missing-value.json': { path: 'packages[0].packageArguments[0]', message: "packages[0].packageArguments[0] needs 'valueHint' or 'value': add one" },
  };

  it('are all here', () => {
    expect(readdirSync(join(FOLDER, 'invalid')).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))('%s', (name, error) => {
    const report = verify('invalid', name);
    expect(errorsOf(report)).toEqual([{ level: 'error', rule: 'schema', ...error, source: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json' }]);
    // None names a $schema: each says which schema it was checked against instead.
    expect(report.findings[0]).toMatchObject({ level: 'warning', rule: 'server-json/schema-unknown', path: '$schema' });
  });
});
