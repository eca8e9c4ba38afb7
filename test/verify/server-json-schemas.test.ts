import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHIPPED_SERVER_SCHEMA_DATES, shippedDateOf } from '../../src/verify/server-json/shipped-server-schemas.js';
import { validateServerJson } from '../../src/verify/server-json/validate-server-json.js';
import { verifyServerJson } from '../../src/verify/server-json/verify-server-json.js';

const ROOT = join(import.meta.dirname, '../..');
const fixture = (name: string) => readFileSync(join(ROOT, 'fixtures/verify/server-json', name), 'utf8');

// The sha256 of each file as published (modelcontextprotocol/static @ a9ba437d; research51-notes.md §1a).
// 2025-07-09 was edited in place upstream several times: the content is pinned, not the date.
const PUBLISHED_SHA256: Record<string, string> = {
  '2025-07-09': '9e349ba6b321bdf99432666f67e019b4b27e58ecc816fede4c08adc797e4f88a',
  '2025-09-16': 'a5c19f122907b4e0684ca08f36b944c3d0972799bc6223d575d5677f94717b0b',
  '2025-09-29': '80fede68c01e868b7170b966f247bd32b9932c46f3fbef2e3b0d0a18996bf54f',
  '2025-10-11': '64135841ae0929143b22b70cbe0dda1483f7ee011adf9e19a3cee38392476808',
  '2025-10-17': '2cc1552fb3a00ad83d9ae4ee0445a21617098963b58e9bae7b94d680d841b4cc',
  '2025-12-11': '3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0',
};

describe('the shipped server.json schemas', () => {
  it.each(Object.entries(PUBLISHED_SHA256))('%s is byte-identical to the published file', (date, sha256) => {
    const bytes = readFileSync(join(ROOT, 'schemas/server-json', `${date}.schema.json`));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);
  });

  it('are the six dated ones, each named by its $id', () => {
    expect([...SHIPPED_SERVER_SCHEMA_DATES]).toEqual(Object.keys(PUBLISHED_SHA256));
    for (const date of SHIPPED_SERVER_SCHEMA_DATES) {
      const id = (JSON.parse(readFileSync(join(ROOT, 'schemas/server-json', `${date}.schema.json`), 'utf8')) as { $id: string }).$id;
      expect(shippedDateOf(id)).toBe(date);
    }
  });

  it('knows the older modelcontextprotocol.io form of the URL, and no date it does not ship', () => {
    expect(shippedDateOf('https://modelcontextprotocol.io/schemas/2025-09-29/server.schema.json')).toBe('2025-09-29');
    expect(shippedDateOf('https://static.modelcontextprotocol.io/schemas/2025-08-01/server.schema.json')).toBeUndefined();
  });
});

describe('picking the schema', () => {
  const minimal = { name: 'io.github.user/weather', description: 'd', version: '1.0.0' };

  it('uses the schema $schema names', () => {
    const result = validateServerJson({ ...minimal, $schema: 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json' });
    expect(result).toEqual({ schema: 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json', date: '2025-09-29', findings: [] });
  });

  it('an unknown $schema: the newest, with a warning naming it', () => {
    const result = validateServerJson({ ...minimal, $schema: 'https://example.com/server.schema.json' });
    expect(result.date).toBe('2025-12-11');
    expect(result.findings).toEqual([
      {
        level: 'warning',
        rule: 'server-json/schema-unknown',
        path: '$schema',
        message:
          '$schema "https://example.com/server.schema.json" is not a published server.json schema toolrun knows: validated against the newest, https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json; set "$schema" to the one you wrote it for',
        source: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      },
    ]);
  });

  it('2025-07-09 requires a package version; 2025-10-11 and later do not', () => {
    const pkg = { registryType: 'oci', identifier: 'docker.io/a/b:1', transport: { type: 'stdio' } };
    const newer = validateServerJson({ ...minimal, $schema: 'https://static.modelcontextprotocol.io/schemas/2025-10-11/server.schema.json', packages: [pkg] });
    expect(newer.findings).toEqual([]);
    const older = validateServerJson({ ...minimal, $schema: 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json', packages: [pkg] });
    expect(older.findings.map((finding) => finding.message)).toEqual(['packages[0].version is missing: add it (the schema requires it)']);
  });

  it('camelCase under the snake_case schema: the field is named, with the fix', () => {
    const result = validateServerJson({
      ...minimal,
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-07-09/server.schema.json',
      packages: [{ registryType: 'npm', identifier: 'x', version: '1.0.0', transport: { type: 'stdio' } }],
    });
    expect(result.findings.map((finding) => `${finding.path}: ${finding.message}`)).toEqual([
      'packages[0].registry_type: packages[0].registry_type is missing: add it (the schema requires it)',
      'packages[0].registryType: packages[0].registryType is not a field the schema allows: the 2025-07-09 schema spells it registry_type: rename it, or set "$schema" to a newer (camelCase) schema',
    ]);
  });

  it('a transport of an unknown kind is said once, not as three branch complaints', () => {
    const result = validateServerJson({
      ...minimal,
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json',
      packages: [{ registryType: 'npm', identifier: 'x', version: '1.0.0', transport: { type: 'websocket' } }],
    });
    expect(result.findings.map((finding) => finding.message)).toEqual([
      'packages[0].transport.type "websocket" is not a kind this field allows (StdioTransport, StreamableHttpTransport, SseTransport): use one of them',
    ]);
  });
});

describe('reading the file', () => {
  it('a snake_case 2025-07-09 file is read: validated as written, composed from its camelCase form', () => {
    const report = verifyServerJson(fixture('snake-case-2025-07-09.json'), 'server.json', { inputs: { SNAKE_TOKEN: 'tok-abcdef' } });
    expect(report.schema).toBe('https://static.modelcontextprotocol.io/schemas/2025-07-09/server.schema.json');
    expect(report.findings).toEqual([]);
    expect(report.entries.map((entry) => [entry.id, entry.label, entry.launch])).toEqual([
      ['packages[0]', 'pypi snake-mcp==0.3.0', { transport: 'stdio', command: 'uvx', args: ['snake-mcp==0.3.0', '--root', '.'], env: { SNAKE_TOKEN: 'tok-abcdef' } }],
    ]);
  });

  it('a JSON syntax error: one error with its line and column', () => {
    expect(verifyServerJson(fixture('not-json.json'), 'server.json', { inputs: {} })).toEqual({
      file: 'server.json',
      format: 'server.json',
      findings: [{ level: 'error', rule: 'server-json/not-json', path: '', message: 'server.json:4:1: property name expected: fix the JSON there' }],
      entries: [],
    });
  });

  it('JSON that is not an object', () => {
    expect(verifyServerJson('[1]', 'server.json', { inputs: {} }).findings.map((finding) => finding.message)).toEqual([
      'server.json holds an array, not a server.json object: give the file with {"name": …, "packages": […]}',
    ]);
  });
});
