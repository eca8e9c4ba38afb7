import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { ROOT } from '../helpers/run-toolrun.js';
import { expectValidJunit } from '../helpers/junit-schemas.js';
import { startV2HttpServer } from '../helpers/http-fixture.js';
import { fixtureHome } from '../helpers/host-fixtures.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// SPEC §24, issue 50 items 1, 2 and 4: `toolrun lock` pins what the agent sees, `--check` catches
// each rug pull (a tool added later, a rewritten description, a widened schema, a rename, a package
// that resolves to a new release) with exit 1, and a server the lock does not pin with exit 2.

/** A folder with a config of rug servers, each reading its mode from its own file (the config never changes). */
function rugProject(names: string[] = ['notes']) {
  const dir = tempDir();
  const files = Object.fromEntries(names.map((name) => [name, join(dir, `${name}.rug`)]));
  const config = writeTempConfig({ mcpServers: Object.fromEntries(names.map((name) => [name, fixtureServer('rug-server.js', { env: { RUG_FILE: files[name] } })])) });
  const run = (args: string[]) => runCleanInProcess(['--config', config, ...args], { cwd: dir });
  const rug = (name: string, mode: string) => writeFileSync(files[name]!, mode);
  return { dir, config, run, rug, lock: () => readFileSync(join(dir, 'toolrun.lock'), 'utf8') };
}

describe('toolrun lock', () => {
  it('writes toolrun.lock: the launch, serverInfo, a sha256 and the pinned definition per tool and prompt; --check of the same servers is exit 0', async () => {
    const project = rugProject();
    const written = await project.run(['lock']);
    expect(written).toMatchObject({ exitCode: 0, stdout: '', stderr: 'wrote toolrun.lock: 1 server, 2 tools' });
    const lock = JSON.parse(project.lock());
    expect(Object.keys(lock)).toEqual(['servers', 'toolrunLock']);
    const notes = lock.servers.notes;
    expect(Object.keys(notes)).toEqual(['findings', 'launch', 'prompts', 'resourceTemplates', 'server', 'skills', 'tools']);
    expect(notes.launch).toEqual({ command: process.execPath, args: [join(ROOT, 'fixtures', 'servers', 'rug-server.js')] });
    expect(notes.server).toEqual({ name: 'rug', version: '1.0.0' });
    expect(notes.tools.map((tool: { key: string }) => tool.key)).toEqual(['read_notes', 'send_note']);
    expect(notes.tools[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(notes.tools[0].definition)).toEqual(['annotations', 'description', 'inputSchema', 'name']);
    expect(notes.prompts.map((prompt: { key: string }) => prompt.key)).toEqual(['summarize']);
    expect(notes.findings).toEqual([]);
    expect(await project.run(['lock', '--check'])).toMatchObject({ exitCode: 0, stdout: 'no changes (toolrun.lock → 1 server now)', stderr: '' });
  });

  it('--check: each rug pull is exit 1, printed as mcp diff prints, breaking first', async () => {
    const project = rugProject();
    expect((await project.run(['lock'])).exitCode).toBe(0);
    const check = async (mode: string) => {
      project.rug('notes', mode);
      return project.run(['lock', '--check']);
    };
    expect(await check('added')).toMatchObject({
      exitCode: 1,
      stdout: ['changed   notes/tools.export_notes — new tool, not in the lock: the model would see it without anyone approving it', '0 breaking changes, 1 other (toolrun.lock → 1 server now)'].join(
        '\n',
      ),
    });
    expect(await check('description')).toMatchObject({
      exitCode: 1,
      stdout: [
        "changed   notes/tools.read_notes.description — description changed: a change to the model's instructions",
        'changed   notes/tools.read_notes.description — new mcp/instruction-text finding: a hidden-instruction tag ("<IMPORTANT>"): text aimed at the model, not a description of the tool',
        '0 breaking changes, 2 others (toolrun.lock → 1 server now)',
      ].join('\n'),
    });
    const schema = await check('schema');
    expect(schema.exitCode).toBe(1);
    expect(schema.stdout).toBe(
      [
        'changed   notes/tools.read_notes.inputSchema.properties.folder — enum removed: any value is accepted',
        'changed   notes/tools.read_notes.inputSchema.properties.command — new optional argument',
        '0 breaking changes, 2 others (toolrun.lock → 1 server now)',
      ].join('\n'),
    );
    expect(await check('rename')).toMatchObject({
      exitCode: 1,
      stdout: [
        "BREAKING  notes/tools.send_note — renamed to 'post_note', definition unchanged: calls by the old name fail, and the model sees it under a name no one approved",
        '1 breaking change, 0 others (toolrun.lock → 1 server now)',
      ].join('\n'),
    });
    expect(await check('version')).toMatchObject({
      exitCode: 1,
      stdout: [
        'changed   notes/server.version — the server reports another version (pinned 1.0.0, now 1.1.0): its launch resolved to a new release; pin the version, or approve it with toolrun lock --update notes',
        '0 breaking changes, 1 other (toolrun.lock → 1 server now)',
      ].join('\n'),
    });
    expect(await check('none')).toMatchObject({ exitCode: 0 });
  });

  it('--check --json, --junit and --sarif give the same changes', async () => {
    const project = rugProject();
    expect((await project.run(['lock'])).exitCode).toBe(0);
    project.rug('notes', 'rename');
    const junit = join(project.dir, 'lock.xml');
    const sarif = join(project.dir, 'lock.sarif');
    const result = await project.run(['--json', 'lock', '--check', '--junit', junit, '--sarif', sarif]);
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      changes: [
        {
          server: 'notes',
          kind: 'renamed',
          what: 'tool',
          path: 'notes/tools.send_note',
          breaking: true,
          before: 'notes/send_note',
          after: 'notes/post_note',
          reason: "renamed to 'post_note', definition unchanged: calls by the old name fail, and the model sees it under a name no one approved",
        },
      ],
      unpinned: [],
      warnings: [],
    });
    expect(readFileSync(junit, 'utf8')).toContain('<testcase classname="toolrun.lock" name="notes" time="0.000">');
    expectValidJunit(junit);
    const report = JSON.parse(readFileSync(sarif, 'utf8'));
    expect(report.runs[0].results).toMatchObject([
      { ruleId: 'lock/tool-renamed', level: 'error', locations: [{ physicalLocation: { artifactLocation: { uri: 'toolrun.lock' }, region: { startLine: 3 } } }] },
    ]);
  });

  it('--check: a configured server the lock does not pin is exit 2; one pinned but no longer configured is a change', async () => {
    const project = rugProject(['a', 'b']);
    expect((await project.run(['lock', 'a'])).exitCode).toBe(0);
    expect(Object.keys(JSON.parse(project.lock()).servers)).toEqual(['a']);
    expect(await project.run(['lock', '--check'])).toMatchObject({
      exitCode: 2,
      stdout: 'no changes (toolrun.lock → 1 server now)',
      stderr: '✖ b is not pinned in toolrun.lock: pin it with: toolrun lock --update b',
    });
    expect(await project.run(['lock', '--check', 'a'])).toMatchObject({ exitCode: 0 });
    const other = writeTempConfig({ mcpServers: { b: fixtureServer('rug-server.js') } });
    const gone = await runCleanInProcess(['--config', other, 'lock', '--check'], { cwd: project.dir });
    expect(gone).toMatchObject({ exitCode: 2 });
    expect(gone.stdout).toBe(['BREAKING  a/ — server pinned in the lock is no longer configured', '1 breaking change, 0 others (toolrun.lock → 0 servers now)'].join('\n'));
  });

  it('--update SERVER re-pins that server alone; the other entries stay as pinned', async () => {
    const project = rugProject(['a', 'b']);
    expect((await project.run(['lock'])).exitCode).toBe(0);
    const before = JSON.parse(project.lock());
    project.rug('a', 'added');
    project.rug('b', 'added');
    expect(await project.run(['lock', '--update', 'a'])).toMatchObject({ exitCode: 0, stderr: 're-pinned toolrun.lock: 1 server, 3 tools (1 other server kept as pinned)' });
    const after = JSON.parse(project.lock());
    expect(after.servers.a.tools.map((tool: { key: string }) => tool.key)).toEqual(['export_notes', 'read_notes', 'send_note']);
    expect(after.servers.b).toEqual(before.servers.b);
    const check = await project.run(['lock', '--check']);
    expect(check.exitCode).toBe(1);
    // b is checked against its old entry; its new tool is also shadowed by a's, now pinned: lint's cross-server rule, recorded as a new finding.
    expect(check.stdout).toBe(
      [
        'changed   b/tools.export_notes — new tool, not in the lock: the model would see it without anyone approving it',
        "changed   b/tools.export_notes.name — new mcp/name-collision finding: a has a tool 'export_notes' too: a client that does not prefix names with the server's keeps only one (usually a's, the first listed)",
        '0 breaking changes, 2 others (toolrun.lock → 2 servers now)',
      ].join('\n'),
    );
  });

  it('--update without a server, --check with --update, and --check without a lock are usage errors (exit 2)', async () => {
    const project = rugProject();
    expect(await project.run(['lock', '--update'])).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('--update re-pins the servers you name: toolrun lock --update SERVER…') });
    expect(await project.run(['lock', '--check', '--update', 'notes'])).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('--check compares and --update writes: give one of them') });
    expect(await project.run(['lock', '--check'])).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('toolrun.lock: no such file; pin the servers first with: toolrun lock') });
    writeFileSync(join(project.dir, 'toolrun.lock'), '{"servers": {}}');
    expect(await project.run(['lock', '--check'])).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('toolrun.lock: not a toolrun lock: it has no "toolrunLock" field') });
  });

  it('records the trust findings of lint (instructions to the model, shadowing across servers) in the lock', async () => {
    const dir = tempDir();
    const config = writeTempConfig({ mcpServers: { notes: fixtureServer('rug-server.js', { env: { RUG: 'description' } }), copy: fixtureServer('rug-server.js') } });
    const result = await runCleanInProcess(['--config', config, 'lock'], { cwd: dir });
    expect(result.exitCode).toBe(0);
    const lock = JSON.parse(readFileSync(join(dir, 'toolrun.lock'), 'utf8'));
    expect(lock.servers.notes.findings).toEqual([
      {
        rule: 'mcp/instruction-text',
        tool: 'read_notes',
        path: '$.description',
        message: 'a hidden-instruction tag ("<IMPORTANT>"): text aimed at the model, not a description of the tool',
      },
      {
        rule: 'mcp/name-collision',
        tool: 'read_notes',
        path: '$.name',
        message: "copy has a tool 'read_notes' too: a client that does not prefix names with the server's keeps only one (usually copy's, the first listed)",
      },
      {
        rule: 'mcp/name-collision',
        tool: 'send_note',
        path: '$.name',
        message: "copy has a tool 'send_note' too: a client that does not prefix names with the server's keeps only one (usually copy's, the first listed)",
      },
    ]);
    expect(result.stderr).toContain('notes/read_notes: mcp/instruction-text $.description');
  });

  it("--host pins the servers a host starts, under the host's names", async () => {
    const f = fixtureHome();
    f.write(join(f.home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { 'my-notes': fixtureServer('rug-server.js') } }));
    const result = await runInProcess(['--host', 'cursor', 'lock'], { env: f.env, cwd: f.project });
    expect(result).toMatchObject({ exitCode: 0, stderr: 'wrote toolrun.lock: 1 server, 2 tools' });
    expect(Object.keys(JSON.parse(readFileSync(join(f.project, 'toolrun.lock'), 'utf8')).servers)).toEqual(['my-notes']);
    expect(await runInProcess(['lock', '--check', '--host', 'cursor'], { env: f.env, cwd: f.project })).toMatchObject({ exitCode: 0, stdout: 'no changes (toolrun.lock → 1 server now)' });
  });

  it('pins server-everything, -filesystem and -memory the same twice, whatever their order in the config', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const servers = {
      everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] },
      filesystem: { command: process.execPath, args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), dir] },
      memory: { command: process.execPath, args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } },
    };
    const forward = writeTempConfig({ mcpServers: servers });
    const backward = writeTempConfig({ mcpServers: Object.fromEntries(Object.entries(servers).reverse()) });
    expect(await runCleanInProcess(['--config', forward, 'lock', '--file', 'one.lock'], { cwd: dir })).toMatchObject({ exitCode: 0 });
    expect(await runCleanInProcess(['--config', backward, 'lock', '--file', 'two.lock'], { cwd: dir })).toMatchObject({ exitCode: 0 });
    const one = readFileSync(join(dir, 'one.lock'), 'utf8');
    expect(readFileSync(join(dir, 'two.lock'), 'utf8')).toBe(one);
    const lock = JSON.parse(one);
    expect(lock.servers.memory.tools.map((tool: { key: string }) => tool.key)).toContain('read_graph');
    expect(lock.servers.everything.tools.map((tool: { key: string }) => tool.key)).toContain('echo');
    expect(await runCleanInProcess(['--config', backward, 'lock', '--check', '--file', 'one.lock'], { cwd: dir })).toMatchObject({ exitCode: 0, stdout: 'no changes (one.lock → 3 servers now)' });
  });

  it("pins a server's skills by their files' digests; a skill edited on the server is a change", { timeout: 30_000 }, async () => {
    const dir = tempDir();
    const pinned = writeTempConfig({ mcpServers: { skills: fixtureServer('skills-server.js') } });
    const edited = writeTempConfig({ mcpServers: { skills: fixtureServer('skills-server.js', { env: { MODE: 'edited' } }) } });
    expect(await runCleanInProcess(['--config', pinned, 'lock'], { cwd: dir })).toMatchObject({ exitCode: 0 });
    const lock = JSON.parse(readFileSync(join(dir, 'toolrun.lock'), 'utf8'));
    const skill = lock.servers.skills.skills.find((item: { key: string }) => item.key.includes('git-workflow'));
    expect(skill.definition.resources[0].digest).toMatch(/^sha256:/);
    const check = await runCleanInProcess(['--config', edited, 'lock', '--check'], { cwd: dir });
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toBe(
      [
        'BREAKING  skills/skills["skill://acme/billing/refunds/SKILL.md"].resources["skill://acme/billing/refunds/examples/email.md"] — file content changed: a host that approved the old files must ask again (skills.mdx#verification-on-read)',
        'BREAKING  skills/skills["skill://git-workflow/SKILL.md"].resources["skill://git-workflow/SKILL.md"] — file content changed: a host that approved the old files must ask again (skills.mdx#verification-on-read)',
        'BREAKING  skills/skills["skill://git-workflow/SKILL.md"].frontmatter.allowed-tools — allowed-tools changed: the skill asks for other tool permissions on the host, which a user must approve again',
        '3 breaking changes, 0 others (toolrun.lock → 1 server now)',
      ].join('\n'),
    );
  });

  it('--check in GitHub Actions annotates each change at its server in the lock', async () => {
    const project = rugProject();
    expect((await project.run(['lock'])).exitCode).toBe(0);
    project.rug('notes', 'rename');
    const result = await runCleanInProcess(['--config', project.config, 'lock', '--check'], { cwd: project.dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      "::error file=toolrun.lock,line=3,title=toolrun lock%3A notes::notes/tools.send_note — renamed to 'post_note', definition unchanged: calls by the old name fail, and the model sees it under a name no one approved",
    );
  });

  it('pins a remote server by its URL, and --check of it is exit 0', async () => {
    const server = await startV2HttpServer();
    try {
      const dir = tempDir();
      const config = writeTempConfig({ mcpServers: { remote: { url: server.url } } });
      expect(await runCleanInProcess(['--config', config, 'lock'], { cwd: dir })).toMatchObject({ exitCode: 0 });
      const lock = JSON.parse(readFileSync(join(dir, 'toolrun.lock'), 'utf8'));
      expect(lock.servers.remote.launch).toEqual({ url: server.url });
      expect(lock.servers.remote.tools.length).toBeGreaterThan(0);
      expect(await runCleanInProcess(['--config', config, 'lock', '--check'], { cwd: dir })).toMatchObject({ exitCode: 0, stdout: 'no changes (toolrun.lock → 1 server now)', stderr: '' });
      const json = await runCleanInProcess(['--config', config, '--json', 'lock'], { cwd: dir });
      expect(json.exitCode).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({
        file: join(dir, 'toolrun.lock'),
        servers: {
          remote: { tools: lock.servers.remote.tools.length, prompts: lock.servers.remote.prompts.length, resourceTemplates: lock.servers.remote.resourceTemplates.length, skills: 0, findings: 0 },
        },
      });
    } finally {
      await server.stop();
    }
  });
});
