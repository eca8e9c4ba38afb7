import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PACKAGE, npxEnvironment, startFakeRegistry, type FakeRegistry } from '../helpers/fake-registry.js';
import { expectValidJunit } from '../helpers/junit-schemas.js';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { runClean } from '../helpers/processes.js';
import { ROOT } from '../helpers/run-toolrun.js';
import { packMemoryBundle } from '../helpers/mcpb-bundles.js';
import { tempDir } from '../helpers/temp-config.js';

// SPEC §25, issue 51: `toolrun mcp verify` on server.json files — the registry's own examples, the
// exact launch a host composes, --launch against a registry on loopback (fake-registry.ts).

const EXAMPLES = join(ROOT, 'fixtures', 'verify', 'registry-examples');

function serverJson(packages: unknown[], extra: Record<string, unknown> = {}): string {
  const dir = tempDir();
  const file = join(dir, 'server.json');
  const document = {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name: 'io.github.toolrun/fixture',
    description: "toolrun's fixture server",
    version: '1.0.0',
    packages,
    ...extra,
  };
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  return file;
}

const npm = (version: string, extra: Record<string, unknown> = {}) => ({ registryType: 'npm', identifier: FIXTURE_PACKAGE, version, transport: { type: 'stdio' }, ...extra });

describe('mcp verify server.json (offline)', () => {
  it('passes every valid example of the registry and fails every invalid one, naming the field', async () => {
    for (const name of readdirSync(join(EXAMPLES, 'valid'))) {
      const result = await runInProcess(['mcp', 'verify', join(EXAMPLES, 'valid', name)]);
      expect(result.exitCode, name).toBe(0);
    }
    const expected: Record<string, string> = {
      'bad-name-pattern.json': 'name',
      'description-too-long.json': 'description',
      'missing-name.json': 'name',
      'package-version-latest.json': 'packages[0].version',
      'positional-argument-missing-value.json': 'packages[0].packageArguments[0]',
    };
    expect(readdirSync(join(EXAMPLES, 'invalid')).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, field] of Object.entries(expected)) {
      const result = await runInProcess(['--json', 'mcp', 'verify', join(EXAMPLES, 'invalid', name)]);
      expect(result.exitCode, name).toBe(1);
      const report = JSON.parse(result.stdout) as { ok: boolean; reports: { findings: { level: string; path: string }[] }[] };
      expect(report.ok, name).toBe(false);
      expect(
        report.reports[0]!.findings.filter((finding) => finding.level === 'error').map((finding) => finding.path),
        name,
      ).toContain(field);
    }
  });

  it('prints the command a host composes, exactly, with the environment masked where secret; a required input is an error only with --launch', async () => {
    const file = serverJson([
      npm('1.0.0', {
        runtimeArguments: [{ type: 'named', name: '--prefer-offline' }],
        packageArguments: [{ type: 'named', name: '--root', value: '/data' }],
        environmentVariables: [
          { name: 'NOTES_TOKEN', description: 'the token', isRequired: true, isSecret: true },
          { name: 'NOTES_MODE', default: 'read' },
        ],
      }),
    ]);
    const offline = await runInProcess(['mcp', 'verify', file]);
    expect(offline.exitCode).toBe(0);
    expect(offline.stdout).toContain(`$ npx --prefer-offline ${FIXTURE_PACKAGE}@1.0.0 --root /data`);
    expect(offline.stdout).toContain('env NOTES_MODE=read');
    expect(offline.stdout).toContain(
      'warning packages[0].environmentVariables[0]: packages[0].environmentVariables[0] (NOTES_TOKEN) is required and has no default: give it with --input NOTES_TOKEN=',
    );
    const given = await runInProcess(['mcp', 'verify', file, '--input', 'NOTES_TOKEN=s3cr3t-value-123']);
    expect(given.exitCode).toBe(0);
    expect(given.stdout).toContain('env NOTES_TOKEN=');
    expect(given.stdout).not.toContain('s3cr3t-value-123');
  });

  it('writes JUnit and SARIF; a missing file is exit 2', async () => {
    const dir = tempDir();
    const junit = join(dir, 'verify.xml');
    const sarif = join(dir, 'verify.sarif');
    const result = await runInProcess(['mcp', 'verify', join(EXAMPLES, 'invalid', 'package-version-latest.json'), join(EXAMPLES, 'valid', 'minimal.json'), '--junit', junit, '--sarif', sarif]);
    expect(result.exitCode).toBe(1);
    expectValidJunit(junit);
    expect(readFileSync(junit, 'utf8')).toContain("packages[0].version: 'latest' is not allowed");
    const log = JSON.parse(readFileSync(sarif, 'utf8')) as { runs: { results: { ruleId: string; level: string }[] }[] };
    expect(log.runs[0]!.results).toContainEqual(expect.objectContaining({ ruleId: 'schema', level: 'error' }));
    expect(await runInProcess(['mcp', 'verify', join(dir, 'nope.json')])).toMatchObject({ exitCode: 2, stderr: `✖ ${join(dir, 'nope.json')}: no such file or folder` });
    expect((await runInProcess(['mcp', 'verify', dir])).stderr).toBe(`✖ ${dir}: no server.json, manifest.json or .mcpb in this folder`);
  });
});

describe('mcp verify --launch', () => {
  let registry: FakeRegistry;
  beforeAll(async () => {
    registry = await startFakeRegistry();
  }, 60_000);
  afterAll(() => registry?.close());

  it(
    'starts each npm package as VS Code composes it: the published one answers (handshake, lint, conform: this fixture breaks some rules), an unpublished version fails with npm’s own words',
    { timeout: 120_000 },
    async () => {
      const file = serverJson([npm('1.0.0'), npm('1.9.9')]);
      const env = npxEnvironment(registry, tempDir());
      const result = await runCleanInProcess(['--json', 'mcp', 'verify', file, '--launch'], { env });
      expect(result.exitCode).toBe(1);
      const entries = (JSON.parse(result.stdout) as { reports: { entries: { id: string; launched: Record<string, unknown> }[] }[] }).reports[0]!.entries;
      expect(entries[0]!.launched, JSON.stringify(entries[0]!.launched)).toMatchObject({
        handshake: true,
        serverInfo: { name: FIXTURE_PACKAGE, version: '1.0.0' },
        tools: 1,
        lint: { errors: 0, warnings: 0 },
      });
      // The fixture answers methods it does not offer and accepts any revision: conform's verdict is the entry's.
      const conform = entries[0]!.launched.conform as { passed: number; failed: number };
      expect(conform.passed).toBeGreaterThan(0);
      expect(conform.failed).toBeGreaterThan(0);
      expect(entries[1]!.launched).toMatchObject({ handshake: false });
      expect(String(entries[1]!.launched.error)).toMatch(/1\.9\.9|no matching version|ETARGET/i);
    },
  );
});

describe('mcp verify .mcpb', () => {
  it('a bundle the toolkit packed from server-memory launches as Claude Desktop composes it; without its node_modules it fails with the import error', { timeout: 120_000 }, async () => {
    const bundle = await packMemoryBundle(true);
    const launched = await runInProcess(['mcp', 'verify', bundle, '--launch']);
    expect(launched.exitCode, launched.stdout).toBe(0);
    expect(launched.stdout).toContain('(as claude-desktop composes it)');
    expect(launched.stdout).toMatch(/launched \([\d.]+ s\): handshake ok \(memory-server [^,]+, [\d-]+\) · 9 tools · conform \d+ pass, 0 fail/);
    // The built binary: its exit runs the cleanup of the unpacked folder, and nothing it started is left running.
    const broken = await runClean(['mcp', 'verify', await packMemoryBundle(false), '--launch']);
    expect(broken.exitCode).toBe(1);
    expect(broken.stdout).toContain('launch failed');
    expect(broken.stdout).toContain("Cannot find package '@modelcontextprotocol/sdk'");
    // The unpacked folder is gone with the command.
    expect(broken.stdout).toMatch(/\$ \S+ (\S+)\/dist\/index\.js/);
    expect(existsSync(/\$ \S+ (\S+)\/dist\/index\.js/.exec(broken.stdout)![1]!)).toBe(false);
  });

  it("a server.json's mcpb package is checked against the bundle beside it: fileSha256 must match", { timeout: 60_000 }, async () => {
    const bundle = await packMemoryBundle(true);
    const sha = createHash('sha256').update(readFileSync(bundle)).digest('hex');
    const mcpb = (fileSha256: string) => ({ registryType: 'mcpb', identifier: 'https://github.com/toolrun/fixture/releases/download/v1.0.0/memory.mcpb', fileSha256, transport: { type: 'stdio' } });
    const good = serverJson([mcpb(sha)]);
    copyFileSync(bundle, join(good, '..', 'memory.mcpb'));
    const passed = await runInProcess(['--json', 'mcp', 'verify', good]);
    expect(passed.exitCode, passed.stdout).toBe(0);
    const entry = (JSON.parse(passed.stdout) as { reports: { entries: { launch?: { command: string }; composedAs?: { host: string } }[] }[] }).reports[0]!.entries[0]!;
    expect(entry.composedAs?.host).toBe('claude-desktop');
    expect(entry.launch?.command).toBe(process.execPath);
    const bad = serverJson([mcpb('0'.repeat(64))]);
    copyFileSync(bundle, join(bad, '..', 'memory.mcpb'));
    const failed = await runInProcess(['mcp', 'verify', bad]);
    expect(failed.exitCode).toBe(1);
    expect(failed.stdout).toContain('[mcpb/sha256]');
  });
});

describe('config entries that name a bundle or a server.json package', () => {
  it('{"bundle": …} starts the bundle as Claude Desktop composes it, unpacked once into the cache; every command sees it', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    copyFileSync(await packMemoryBundle(true), join(dir, 'memory.mcpb'));
    writeFileSync(join(dir, 'toolrun.config.json'), JSON.stringify({ mcpServers: { memory: { bundle: 'memory.mcpb' } } }));
    const env = { XDG_CACHE_HOME: join(dir, 'cache') };
    const run = (args: string[]) => runCleanInProcess(args, { cwd: dir, env });
    expect(await run(['exec', 'memory:read_graph'])).toMatchObject({ exitCode: 0 });
    const [digest] = readdirSync(join(dir, 'cache', 'toolrun', 'bundles'));
    expect(digest).toBe(
      createHash('sha256')
        .update(readFileSync(join(dir, 'memory.mcpb')))
        .digest('hex'),
    );
    expect((await run(['--json', 'list', '--server', 'memory'])).exitCode).toBe(0);
    expect(await run(['validate', '--offline'])).toMatchObject({ exitCode: 0 });
    writeFileSync(join(dir, 'toolrun.config.json'), JSON.stringify({ mcpServers: { memory: { bundle: 'gone.mcpb' } } }));
    expect(await run(['list'])).toMatchObject({
      exitCode: 3,
      stderr: `✖ ${join(dir, 'toolrun.config.json')}: mcpServers.memory.bundle: ${join(dir, 'gone.mcpb')}: no such file; give the path of a .mcpb or an unpacked bundle, relative to the config file`,
    });
  });

  it('{"serverJson": …, "package": N} starts that package as VS Code composes it; a required input it lacks is exit 3 naming "inputs"', { timeout: 120_000 }, async () => {
    const registry = await startFakeRegistry();
    try {
      const file = serverJson([npm('1.0.0', { environmentVariables: [{ name: 'FX_TOKEN', description: 'token', isRequired: true, isSecret: true }] })]);
      const dir = join(file, '..');
      const config = (entry: Record<string, unknown>) => writeFileSync(join(dir, 'toolrun.config.json'), JSON.stringify({ mcpServers: { fx: { serverJson: 'server.json', ...entry } } }));
      const env = { ...npxEnvironment(registry, tempDir()), FX_TOKEN: 'from-env' };
      config({ package: 0 });
      const missing = await runCleanInProcess(['list'], { cwd: dir, env });
      expect(missing.exitCode).toBe(3);
      expect(missing.stderr).toContain(
        'mcpServers.fx.serverJson: packages[0].environmentVariables[0] (FX_TOKEN) is required and has no default: give it in the entry\'s "inputs", e.g. "inputs": {"FX_TOKEN": "${FX_TOKEN}"}',
      );
      config({ package: 0, inputs: { FX_TOKEN: '${FX_TOKEN}' } });
      const listed = await runCleanInProcess(['--json', 'list', '--server', 'fx'], { cwd: dir, env });
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).tools.map((tool: { server: string }) => tool.server)).toEqual(['fx']);
      config({ package: 3, inputs: { FX_TOKEN: 'x' } });
      expect((await runCleanInProcess(['list'], { cwd: dir, env })).stderr).toContain('has no packages[3]: packages[0]');
    } finally {
      await registry.close();
    }
  });
});
