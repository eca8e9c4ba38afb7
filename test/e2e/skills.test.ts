import { readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SkillsClient, SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import { startHttpFixture, type HttpFixture } from '../helpers/http-fixture.js';
import { fixtureServerScript } from '../helpers/bundled-servers.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { FIXTURES, runToolrun } from '../helpers/run-toolrun.js';

// The Skills extension (io.modelcontextprotocol/skills): `toolrun skills list|get|read` against
// fixtures/servers/skills-server.js (the v2 SDK's ext/skills, both eras, stdio and HTTP) and the
// hand-rolled skills-broken-server.js, and toolrun's verdicts against the SDK's own SkillsClient.
const SKILLS = 'skills-server.js';
const BROKEN = 'skills-broken-server.js';

describe('toolrun skills', () => {
  let http: HttpFixture;
  let config: string;
  beforeAll(async () => {
    http = await startHttpFixture(SKILLS, { TRANSPORT: 'http', DYNAMIC: '1' });
    config = writeTempConfig({
      mcpServers: {
        sk: fixtureServer(SKILLS, { env: { DYNAMIC: '1' } }),
        legacy: fixtureServer(SKILLS, { env: { DYNAMIC: '1' }, protocol: '2025-11-25' }),
        skhttp: { url: http.url },
        legacyhttp: { url: http.url, protocol: '2025-11-25' },
        tampered: fixtureServer(SKILLS, { env: { MODE: 'tampered' } }),
        edited: fixtureServer(SKILLS, { env: { MODE: 'edited' } }),
        manifest: fixtureServer(SKILLS, { env: { MODE: 'manifest' } }),
        outside: fixtureServer(BROKEN, { env: { BREAK: 'outside' } }),
        gone: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
      },
    });
  });
  afterAll(async () => {
    await http?.stop();
  });

  it('lists every skill of a server: path, files, size, description', async () => {
    const result = await runInProcess(['--config', config, 'skills', 'list', 'sk']);
    expect(result.stdout).toBe(
      [
        'SERVER  SKILL                 FILES    SIZE   DESCRIPTION',
        "sk      git-workflow          1        204 B  Follow the team's Git conventions for branches and commits",
        'sk      acme/billing/refunds  3        258 B  Process customer refund requests per company policy',
        'sk      acme/support/refunds  1        99 B   Answer questions about refunds already made',
        "sk      reports/daily         dynamic         Assemble today's report from live data",
      ].join('\n'),
    );
    expect(result.stderr).toBe('4 skills from 1 server');
    expect(result.exitCode).toBe(0);
  });

  it.each(['sk', 'legacy', 'skhttp', 'legacyhttp'])('lists and verifies the same skills over %s (stdio and HTTP, 2026-07-28 and 2025-11-25)', async (server) => {
    const result = await runInProcess(['--json', '--config', config, 'skills', 'list', server, '--verify']);
    const listing = JSON.parse(result.stdout);
    expect(listing.skills.map((skill: { path: string; verification: { verdict: string } }) => `${skill.path} ${skill.verification.verdict}`)).toEqual([
      'git-workflow verified',
      'acme/billing/refunds verified',
      'acme/support/refunds verified',
      'reports/daily unverifiable',
    ]);
    expect(listing.invalid).toEqual([]);
    expect(result.exitCode).toBe(0);
  });

  it('gets a skill by path, with its frontmatter and files verified', async () => {
    const result = await runInProcess(['--config', config, 'skills', 'get', 'sk:acme/billing/refunds', '--verify']);
    expect(result.stdout).toBe(
      [
        'skill://acme/billing/refunds/SKILL.md · mcp:sk',
        '',
        'name: refunds',
        'description: Process customer refund requests per company policy',
        '',
        'FILE               SIZE   DIGEST                                                                   CHECK',
        'SKILL.md           147 B  sha256:824870549d9b225f7a4edc15871d6af999f945bedb1fa04b92a62eb68cf3ea7c  verified',
        'assets/logo.png    68 B   sha256:63ef318d96b5d0d0ceba6e04a4e622b1158335cdc67c49e27839132c6f655058  verified',
        'examples/email.md  43 B   sha256:741be38f43be62a9b2304b42f8ecd16c52eeeda6e3115cc0b253b55962a87b42  verified',
      ].join('\n'),
    );
    expect(result.exitCode).toBe(0);
  });

  it('refuses a name two skills share, naming their paths (skills.mdx#names: hosts MUST disambiguate)', async () => {
    const result = await runInProcess(['--config', config, 'skills', 'get', 'sk:refunds']);
    expect(result.stderr).toBe("✖ MCP server 'sk': 2 skills are named 'refunds': acme/billing/refunds, acme/support/refunds; name one by its path (sk:acme/billing/refunds)");
    expect(result.stdout).toBe('');
    expect(result.exitCode).toBe(2);
  });

  it('an unknown skill is exit 2, by name (not listed) and by path (skills/get answers -32602)', async () => {
    const byName = await runInProcess(['--config', config, 'skills', 'get', 'sk:nope']);
    expect(byName.stderr).toBe("✖ MCP server 'sk': no skill 'nope' is listed; see them with: toolrun skills list sk");
    expect(byName.exitCode).toBe(2);
    const byPath = await runInProcess(['--config', config, 'skills', 'read', 'skhttp:acme/nope']);
    expect(byPath.stderr).toBe(
      "✖ MCP server 'skhttp': no skill is served at skill://acme/nope/SKILL.md (skills/get: No skill is served at skill://acme/nope/SKILL.md); see them with: toolrun skills list skhttp",
    );
    expect(byPath.exitCode).toBe(2);
  });

  it('lists the skills of a server given by URL', async () => {
    const result = await runInProcess(['--json', 'skills', 'list', http.url]);
    expect(JSON.parse(result.stdout).skills.map((skill: { server: string; path: string }) => `${skill.server} ${skill.path}`)).toEqual([
      `${new URL(http.url).host} git-workflow`,
      `${new URL(http.url).host} acme/billing/refunds`,
      `${new URL(http.url).host} acme/support/refunds`,
      `${new URL(http.url).host} reports/daily`,
    ]);
    expect(result.exitCode).toBe(0);
  });

  it('reads SKILL.md verified to stdout, by name and by SKILL.md URI with --server', async () => {
    const byName = await runInProcess(['--config', config, 'skills', 'read', 'sk:git-workflow']);
    expect(byName.stdout).toBe(
      '---\nname: git-workflow\ndescription: Follow the team\'s Git conventions for branches and commits\nlicense: Apache-2.0\nmetadata:\n  version: "1.2"\n---\n\n# Git workflow\n\nBranch from main; one commit per change.',
    );
    expect(byName.exitCode).toBe(0);
    const byUri = await runInProcess(['--config', config, 'skills', 'read', 'skill://git-workflow/SKILL.md', '--server', 'skhttp']);
    expect(byUri.stdout).toBe(byName.stdout);
    expect(byUri.exitCode).toBe(0);
  });

  it('never prints a file whose digest does not match: exit 1, the mismatch on stderr', async () => {
    const result = await runInProcess(['--config', config, 'skills', 'read', 'tampered:acme/billing/refunds', 'examples/email.md']);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      '⚠ tampered:acme/billing/refunds: examples/email.md FAILS verification (digest): digest sha256:9b0dce968a3a1a8b8c0a73306e7863d4e8a38fda9a6751caff2165538d0974d0; the entry lists sha256:741be38f43be62a9b2304b42f8ecd16c52eeeda6e3115cc0b253b55962a87b42',
    );
    expect(result.exitCode).toBe(1);
  });

  // skills.mdx#verification-on-read: on a discrepancy the host MUST NOT load the skill. Reading one of
  // its files loads it: SKILL.md is verified first, and when it fails the file is never asked for.
  it('reads no file of a skill whose SKILL.md fails verification: exit 1, the file not even requested', async () => {
    const result = await runInProcess(['--json', '--config', config, 'skills', 'read', 'manifest:acme/billing/refunds', 'examples/email.md']);
    expect(result.exitCode).toBe(1);
    const files = (JSON.parse(result.stdout) as { files: Array<{ path: string; verdict: string; message?: string; text?: string }> }).files;
    expect(files.map(({ path, verdict }) => [path, verdict])).toEqual([
      ['SKILL.md', 'digest'],
      ['examples/email.md', 'unread'],
    ]);
    expect(files[1]!.message).toBe("not read: the skill's SKILL.md failed verification, so the skill is not loaded");
    expect(files.some((file) => file.text !== undefined)).toBe(false);
  });

  it('refuses to read a file the entry does not list (skills.mdx: an unlisted file is a verification failure)', async () => {
    const result = await runInProcess(['--config', config, 'skills', 'read', 'sk:git-workflow', 'scripts/run.sh']);
    expect(result.stderr).toBe("✖ 'scripts/run.sh' is not a file of skill git-workflow (its entry lists SKILL.md); an unlisted file is not read");
    expect(result.exitCode).toBe(1);
  });

  it('writes every verified file of a skill under DIR/SERVER/SKILL-PATH with -o', async () => {
    const dir = tempDir();
    const result = await runInProcess(['--config', config, 'skills', 'read', 'skhttp:acme/billing/refunds', '-o', dir]);
    const base = join(dir, 'skhttp', 'acme', 'billing', 'refunds');
    expect(result.stdout.split('\n')).toEqual([join(base, 'SKILL.md'), join(base, 'assets', 'logo.png'), join(base, 'examples', 'email.md')]);
    expect(readFileSync(join(base, 'examples', 'email.md'), 'utf8')).toBe('Dear customer,\n\nyour refund is on its way.\n');
    expect(readFileSync(join(base, 'assets', 'logo.png')).toString('base64')).toBe('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=');
    expect(result.exitCode).toBe(0);
  });

  it('-o never writes through a symbolic link planted under DIR', async () => {
    const dir = tempDir();
    const elsewhere = tempDir();
    symlinkSync(elsewhere, join(dir, 'sk'));
    const result = await runInProcess(['--config', config, 'skills', 'read', 'sk:git-workflow', '-o', dir]);
    expect(result.stderr).toBe(`✖ cannot write under ${join(dir, 'sk')}: it is a symbolic link, not a folder (toolrun writes a skill's files only into folders)`);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(result.exitCode).toBe(1);
  });

  it('--require-digests fails a "dynamic" skill, which is otherwise reported unverifiable, never verified', async () => {
    const plain = await runInProcess(['--config', config, 'skills', 'get', 'sk:reports/daily', '--verify']);
    expect(plain.stderr).toBe('reports/daily: SKILL.md read but unverifiable: the skill publishes no digests (resources: "dynamic")'.replace(/^/, 'sk:'));
    expect(plain.exitCode).toBe(0);
    const required = await runInProcess(['--config', config, 'skills', 'get', 'sk:reports/daily', '--require-digests']);
    expect(required.stderr).toBe('⚠ sk:reports/daily publishes no digests (resources: "dynamic") and --require-digests was given');
    expect(required.exitCode).toBe(1);
  });

  it('says a skill was not fully checked within --max-bytes, and exits 1 rather than pass it', async () => {
    const result = await runInProcess(['--json', '--config', config, 'skills', 'list', 'sk', '--verify', '--max-bytes', '300']);
    const verdicts = JSON.parse(result.stdout).skills.map((skill: { path: string; verification: { verdict: string } }) => `${skill.path} ${skill.verification.verdict}`);
    expect(verdicts).toEqual(['git-workflow verified', 'acme/billing/refunds incomplete', 'acme/support/refunds incomplete', 'reports/daily incomplete']);
    expect(result.exitCode).toBe(1);
  });

  it('takes at most --max-skills skills, and says so', async () => {
    const result = await runInProcess(['--json', '--config', config, 'skills', 'list', 'sk', '--max-skills', '2']);
    const listing = JSON.parse(result.stdout);
    expect(listing.skills.map((skill: { path: string }) => skill.path)).toEqual(['git-workflow', 'acme/billing/refunds']);
    expect(listing.notes).toEqual(['sk: the server lists more than 2 skills; only the first 2 were taken (raise --max-skills)']);
    expect(result.exitCode).toBe(1);
  });

  it('leaves out an invalid entry, saying which rule it breaks: exit 1', async () => {
    const result = await runInProcess(['--config', config, 'skills', 'list', 'outside']);
    expect(result.stderr).toBe(
      '0 skills from 1 server\n⚠ outside: skills/list entry #0 (skill://acme/refunds/SKILL.md) is invalid and was left out: resource "skill://acme/other/notes.md" is not a file inside the skill\'s folder skill://acme/refunds',
    );
    expect(result.exitCode).toBe(1);
  });

  it('accepts and verifies a skill over the per-skill limits, saying that not every host will load it', async () => {
    const result = await runInProcess(['skills', 'get', 'acme/refunds', '--verify', '--', process.execPath, join(FIXTURES, 'servers', BROKEN)], { env: { BREAK: 'big' } });
    expect(result.stderr).toBe(
      "⚠ skills-broken-server:acme/refunds: the skill has 520 files and 2098 bytes, over the extension's per-skill limits (512 files, 16777216 bytes): not every host will load it",
    );
    expect(result.stdout.split('\n').filter((line) => line.endsWith('  verified'))).toHaveLength(520);
    expect(result.exitCode).toBe(0);
  });

  it('exits 4 when a server cannot be reached, 2 on a bad bound', async () => {
    expect((await runInProcess(['--config', config, 'skills', 'list', 'gone'])).exitCode).toBe(4);
    expect((await runInProcess(['--config', config, 'skills', 'read', 'gone:refunds'])).exitCode).toBe(4);
    const bad = await runInProcess(['--config', config, 'skills', 'list', 'sk', '--max-bytes', 'lots']);
    expect(bad.stderr).toBe('✖ --max-bytes lots: not a byte count (e.g. --max-bytes 200M, 1.5G, 65536)');
    expect(bad.exitCode).toBe(2);
  });

  it('runs skill: and list: skills steps in toolrun test, a tampered skill failing its step', async () => {
    const dir = tempDir();
    const file = join(dir, 'skills.test.yaml');
    writeFileSync(
      file,
      [
        'tests:',
        '  - name: refunds verifies',
        '    skill: sk:acme/billing/refunds',
        '    expect:',
        '      path: { "$.verdict": verified, "$.files": { length: 3 }, "$.frontmatter.name": refunds }',
        '  - name: lists skills',
        '    list: skills',
        '    server: skhttp',
        '    expect:',
        '      path: { "$[0].frontmatter.name": git-workflow, "$": { length: 4 } }',
        '  - name: a tampered skill is an error',
        '    skill: tampered:acme/billing/refunds',
        '    expect: { error: "examples/email.md (digest" }',
        '  - name: a tampered skill fails a step that expects none',
        '    skill: tampered:acme/billing/refunds',
        '',
      ].join('\n'),
    );
    const result = await runInProcess(['--json', '--config', config, 'test', file]);
    const report = JSON.parse(result.stdout);
    expect(report.tests.map((test: { name: string; status: string }) => `${test.name}: ${test.status}`)).toEqual([
      'refunds verifies: pass',
      'lists skills: pass',
      'a tampered skill is an error: pass',
      'a tampered skill fails a step that expects none: fail',
    ]);
    expect(result.exitCode).toBe(1);
  });

  it('mcp snapshot pins the skills (entries, files, digests), and mcp diff says which changes need a new approval', async () => {
    const dir = tempDir();
    const first = await runInProcess(['--config', config, 'mcp', 'snapshot', 'sk']);
    const again = await runInProcess(['--config', config, 'mcp', 'snapshot', 'skhttp']);
    expect(again.stdout).toBe(first.stdout);
    const snapshot = JSON.parse(first.stdout);
    expect(Object.keys(snapshot)).toEqual(['prompts', 'protocolVersion', 'resourceTemplates', 'resources', 'server', 'skills', 'toolrunSnapshot', 'tools']);
    expect(snapshot.skills.find((skill: { uri: string }) => skill.uri === 'skill://git-workflow/SKILL.md')).toEqual({
      frontmatter: { description: "Follow the team's Git conventions for branches and commits", license: 'Apache-2.0', metadata: { version: '1.2' }, name: 'git-workflow' },
      resources: [{ digest: 'sha256:455199d7216d197745cdb94db1bdfaf665869671eb75901ed62592f3a183d682', size: 204, uri: 'skill://git-workflow/SKILL.md' }],
      uri: 'skill://git-workflow/SKILL.md',
    });
    const before = join(dir, 'before.json');
    writeFileSync(before, first.stdout);
    const edited = await runInProcess(['--config', config, 'mcp', 'diff', before, 'edited']);
    expect(edited.stdout.split('\n')).toEqual([
      'BREAKING  skills["skill://acme/billing/refunds/SKILL.md"].resources["skill://acme/billing/refunds/examples/email.md"] — file content changed: a host that approved the old files must ask again (skills.mdx#verification-on-read)',
      'BREAKING  skills["skill://git-workflow/SKILL.md"].resources["skill://git-workflow/SKILL.md"] — file content changed: a host that approved the old files must ask again (skills.mdx#verification-on-read)',
      'BREAKING  skills["skill://git-workflow/SKILL.md"].frontmatter.allowed-tools — allowed-tools changed: the skill asks for other tool permissions on the host, which a user must approve again',
      'BREAKING  skills["skill://reports/daily/SKILL.md"] — skill removed: hosts that load it by its URI fail',
      `4 breaking changes, 0 others (${before} → server 'edited')`,
    ]);
    expect(edited.exitCode).toBe(1);
  });

  it('toolrun shell runs skills list|get|read on the servers it holds, and no other', async () => {
    const result = await runToolrun(['--config', config, 'shell', 'sk'], {
      env: { XDG_RUNTIME_DIR: tempDir(), XDG_STATE_HOME: tempDir() },
      input: ['skills', 'skills get sk:git-workflow --verify', 'skills read sk:acme/support/refunds', ''].join('\n'),
      stdin: undefined,
    });
    expect(result.stdout).toContain('sk      acme/support/refunds  1        99 B   Answer questions about refunds already made\n');
    expect(result.stdout).toContain('SKILL.md  204 B  sha256:455199d7216d197745cdb94db1bdfaf665869671eb75901ed62592f3a183d682  verified\n');
    expect(result.stdout).toContain('---\nname: refunds\ndescription: Answer questions about refunds already made\n---\n\n# Refund questions');
    // The other configured servers (gone exits at once) were never started.
    expect(result.stderr).toContain('4 skills from 1 server');
    expect(result.stderr).not.toContain('gone');
    expect(result.exitCode).toBe(0);
  }, 30_000);

  it('asks a server that is not configured, after --', async () => {
    // The fixture as a user would start it (not the suite's bundle), so its name is the file's.
    const result = await runInProcess(['--json', 'skills', 'get', 'git-workflow', '--verify', '--', process.execPath, join(FIXTURES, 'servers', SKILLS)]);
    expect(JSON.parse(result.stdout)).toMatchObject({ server: 'skills-server', path: 'git-workflow', verification: { verdict: 'verified' } });
    expect(result.exitCode).toBe(0);
  });
});

/** Each file's verdict as the v2 SDK's SkillsClient gives it, and the URIs of the entries it refuses. */
async function sdkVerdicts(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<{ files: Record<string, string>; invalid: string[] }> {
  const client = new Client({ name: 'toolrun-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const skills = new SkillsClient(client, { skipInvalid: true });
    const listing = await skills.list();
    const files: Record<string, string> = {};
    for (const skill of listing.skills) {
      for (const uri of skill.resources === 'dynamic' ? [skill.uri] : skill.resources.map((resource) => resource.uri)) {
        try {
          files[uri] = (await skills.read(skill, uri)).verified ? 'verified' : 'unverifiable';
        } catch (error) {
          files[uri] = error instanceof SkillVerificationError ? error.reason : 'error';
        }
      }
    }
    return { files, invalid: listing.invalid.map((entry) => entry.uri ?? `#${entry.index}`).sort() };
  } finally {
    await client.close();
  }
}

/** The same, from `toolrun --json skills list SERVER --verify`. */
async function toolrunVerdicts(configPath: string, server: string): Promise<{ files: Record<string, string>; invalid: string[] }> {
  const result = await runInProcess(['--json', '--config', configPath, 'skills', 'list', server, '--verify']);
  const listing = JSON.parse(result.stdout);
  const files: Record<string, string> = {};
  for (const skill of listing.skills) for (const file of skill.verification.files) files[file.uri] = file.verdict;
  return { files, invalid: listing.invalid.map((entry: { uri?: string; index: number }) => entry.uri ?? `#${entry.index}`).sort() };
}

describe('skills verdicts agree with the v2 SDK SkillsClient', () => {
  const cases: Array<[string, string, Record<string, string>]> = [
    ['sdk correct', SKILLS, { DYNAMIC: '1' }],
    ['sdk tampered', SKILLS, { MODE: 'tampered' }],
    ['sdk resized', SKILLS, { MODE: 'resized' }],
    ['sdk frontmatter', SKILLS, { MODE: 'frontmatter' }],
    ...[
      '',
      'bad-uri',
      'name-not-folder',
      'bad-name',
      'missing-self',
      'outside',
      'duplicate',
      'bad-digest',
      'no-size',
      'no-resources',
      'digest-mismatch',
      'size-mismatch',
      'frontmatter-differs',
      'no-frontmatter',
    ].map((mode): [string, string, Record<string, string>] => [`hand-rolled ${mode || 'correct'}`, BROKEN, { BREAK: mode }]),
  ];
  it.each(cases)('%s', async (_label, file, env) => {
    const config = writeTempConfig({ mcpServers: { s: fixtureServer(file, { env }) } });
    const sdk = await sdkVerdicts(new StdioClientTransport({ command: process.execPath, args: [fixtureServerScript(file)], env: { ...(process.env as Record<string, string>), ...env } }));
    const ours = await toolrunVerdicts(config, 's');
    expect(ours).toEqual(sdk);
    expect(Object.keys(sdk.files).length + sdk.invalid.length).toBeGreaterThan(0);
  });

  it('over Streamable HTTP too (a tampered server)', async () => {
    const http = await startHttpFixture(SKILLS, { TRANSPORT: 'http', MODE: 'tampered' });
    try {
      const config = writeTempConfig({ mcpServers: { s: { url: http.url } } });
      const sdk = await sdkVerdicts(new StreamableHTTPClientTransport(new URL(http.url)));
      expect(await toolrunVerdicts(config, 's')).toEqual(sdk);
      expect(sdk.files['skill://acme/billing/refunds/examples/email.md']).toBe('digest');
    } finally {
      await http.stop();
    }
  });
});
