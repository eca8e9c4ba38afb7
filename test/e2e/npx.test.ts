import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PACKAGE, npxEnvironment, startFakeRegistry, type FakeRegistry } from '../helpers/fake-registry.js';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { runCleanInProcess } from '../helpers/run-in-process.js';
import { runToolrun } from '../helpers/run-toolrun.js';
import { tempDir, writeTempConfig } from '../helpers/temp-config.js';

// npx against a registry on loopback (test/helpers/fake-registry.ts), each test with an empty cache
// (npm_config_cache in a temp folder), so "cold cache" is real and nothing leaves the machine.
let registry: FakeRegistry;
beforeAll(async () => {
  registry = await startFakeRegistry();
}, 60_000);
afterAll(() => registry?.close());

function npxConfig(args: string[], extra: Record<string, unknown> = {}) {
  const cache = tempDir();
  const config = writeTempConfig({ mcpServers: { fx: { command: 'npx', args, env: npxEnvironment(registry, cache), connectTimeoutMs: 500 } }, ...extra });
  return { cache, config };
}

/** Entries of the npx cache that hold an install of the fixture package, complete or not. */
const installsIn = (cache: string) =>
  existsSync(join(cache, '_npx')) ? readdirSync(join(cache, '_npx')).filter((entry) => existsSync(join(cache, '_npx', entry, 'node_modules', FIXTURE_PACKAGE))) : [];

/** What the next plain `npx -y` run of the package does with the cache toolrun left behind. */
const npxDirectly = (cache: string) => execa('npx', ['-y', FIXTURE_PACKAGE], { env: npxEnvironment(registry, cache), input: '', reject: false, timeout: 30_000 });

describe('servers started through npx', () => {
  it('waits for a slow cold-cache install instead of killing it, and says so', async () => {
    registry.tarballDelayMs = 2000;
    // connectTimeoutMs 1500: shorter than the 2 s install, so the run proves the timeout counts from
    // when the server itself runs; long enough for node to start it on a loaded machine (500 was not).
    const cache = tempDir();
    const config = writeTempConfig({ mcpServers: { fx: { command: 'npx', args: ['-y', FIXTURE_PACKAGE], env: npxEnvironment(registry, cache), connectTimeoutMs: 1500 } } });
    const result = await runCleanInProcess(['--config', config, 'exec', 'fx:hello']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('hello from npx');
    expect(result.stderr).toContain(`npx is downloading ${FIXTURE_PACKAGE}… (server 'fx'; waiting up to 120 s: installTimeoutMs)`);
    expect(result.stderr).not.toContain('attempt 1 of 3 failed');
    expect(installsIn(cache)).toHaveLength(1);
    expect((await npxDirectly(cache)).exitCode).toBe(0);
  });

  // Two npm runs (the one given up on, then npx itself); 20 s ran out once under a full suite's load.
  it('gives up at the install timeout without retrying, and leaves no half-written cache entry', { timeout: 45_000 }, async () => {
    registry.tarballDelayMs = 6000;
    const { cache, config } = npxConfig(['-y', FIXTURE_PACKAGE], { installTimeoutMs: 700 });
    const result = await runCleanInProcess(['--config', config, 'exec', 'fx:hello']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'fx'");
    expect(result.stderr).toContain(`  Reason: npx was still installing '${FIXTURE_PACKAGE}' after 1 s`);
    expect(result.stderr).toContain(`  Check: install it once by hand: npx -y --package=${FIXTURE_PACKAGE} -- true (fills npx's cache without starting the server), or raise installTimeoutMs`);
    expect(installsIn(cache)).toEqual([]);
    registry.tarballDelayMs = 0;
    expect((await npxDirectly(cache)).exitCode).toBe(0);
  });

  it("the install timeout's advice works: the package installed by hand, npx starts it without downloading (issue #19 item 21)", async () => {
    registry.tarballDelayMs = 0;
    const cache = tempDir();
    const env = npxEnvironment(registry, cache);
    // The advised command, as a user runs it: it exits by itself (the old advice, --help, started the server).
    const prewarm = await execa('npx', ['-y', `--package=${FIXTURE_PACKAGE}`, '--', 'true'], { env, stdin: 'ignore', reject: false, timeout: 30_000 });
    expect(prewarm.exitCode).toBe(0);
    expect(installsIn(cache)).toHaveLength(1);
    // A download now would outlast the install timeout: the run succeeds only from the cache.
    registry.tarballDelayMs = 30_000;
    const config = writeTempConfig({ installTimeoutMs: 8000, mcpServers: { fx: { command: 'npx', args: ['-y', FIXTURE_PACKAGE], env, connectTimeoutMs: 5000 } } });
    const result = await runCleanInProcess(['--config', config, 'exec', 'fx:hello']);
    registry.tarballDelayMs = 0;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('hello from npx');
  });

  it('doctor counts the server/discover probe from when the server runs, not from the install (issue #19 item 5)', async () => {
    registry.tarballDelayMs = 4000;
    // connectTimeoutMs 4000: a probe silence of 2000 ms, shorter than the install (and long enough for node to start on a busy machine).
    const cache = tempDir();
    const config = writeTempConfig({ mcpServers: { fx: { command: 'npx', args: ['-y', FIXTURE_PACKAGE], env: npxEnvironment(registry, cache), connectTimeoutMs: 4000 } } });
    const doctor = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'fx']);
    registry.tarballDelayMs = 0;
    expect(doctor.exitCode).toBe(0);
    const initialize = (JSON.parse(doctor.stdout).steps as Array<{ id: string; data: Record<string, unknown> }>).find((step) => step.id === 'initialize')!;
    // The fixture answers server/discover (with {}); counted from the spawn, the install was taken for its silence.
    expect(initialize.data.protocol_how).toBe('server/discover answered without supportedVersions, then initialize');
  });

  it('Ctrl-C during the install ends it politely and repairs the cache', async () => {
    registry.tarballDelayMs = 6000;
    const { cache, config } = npxConfig(['-y', FIXTURE_PACKAGE]);
    const marker = newProcessMarker();
    const run = runToolrun(['--config', config, 'exec', 'fx:hello'], { env: marker.env });
    let stderr = '';
    run.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const deadline = Date.now() + 10_000;
    while (!stderr.includes('npx is downloading') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    run.kill('SIGINT');
    expect((await run).exitCode).toBe(130);
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
    expect(installsIn(cache)).toEqual([]);
    registry.tarballDelayMs = 0;
    expect((await npxDirectly(cache)).exitCode).toBe(0);
  });

  it('does not retry a package that does not exist (npm code E404)', async () => {
    registry.tarballDelayMs = 0;
    const { config } = npxConfig(['-y', 'toolrun-no-such-package']);
    const result = await runCleanInProcess(['--config', config, 'exec', 'fx:hello']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'fx'");
    expect(result.stderr).toContain("  Reason: npm could not find 'toolrun-no-such-package' in the registry (npm code E404); the server exited with code 1");
    expect(result.stderr).toContain('  Check: check the package name in "args" (npm view NAME shows whether it exists)');
    // Issue #19 item 8: doctor said "(attempt 1 of 3)" although nothing was retried.
    const doctor = await runCleanInProcess(['--config', config, 'mcp', 'doctor', 'fx']);
    expect(doctor.exitCode).toBe(4);
    expect(doctor.stdout).toContain(
      "✖ spawn       the process started, then failed: npm could not find 'toolrun-no-such-package' in the registry (npm code E404); the server exited with code 1 (not retried: it would fail the same way)",
    );
    expect(doctor.stdout).not.toMatch(/attempt \d of/);
    expect(doctor.stdout.split('\n').at(-1)).toMatch(/^Unreachable: 1 problem, /);
  });

  it('tells to add -y when npx cannot ask, without retrying; doctor and mcp list --check say the same', async () => {
    registry.tarballDelayMs = 0;
    const { config } = npxConfig([FIXTURE_PACKAGE]);
    const reason = `npx wants to ask before installing '${FIXTURE_PACKAGE}', and cannot ask (stdin is not a terminal); the server exited with code 1`;
    const fix = 'add "-y" to args, before the package name: "args": ["-y", …]';
    const exec = await runCleanInProcess(['--config', config, 'exec', 'fx:hello']);
    expect(exec.exitCode).toBe(4);
    expect(exec.stderr).toContain(`  Reason: ${reason}`);
    expect(exec.stderr).toContain(`  Check: ${fix}`);
    const doctor = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'fx']);
    expect(doctor.exitCode).toBe(4);
    const spawn = (JSON.parse(doctor.stdout).steps as Array<{ id: string; finding: string; fix?: string }>).find((step) => step.id === 'spawn')!;
    expect(spawn).toMatchObject({ finding: `the process started, then failed: ${reason} (not retried: it would fail the same way)`, fix });
    const list = await runCleanInProcess(['--json', '--config', config, 'mcp', 'list', '--check']);
    expect(list.exitCode).toBe(4);
    expect(JSON.parse(list.stdout).servers[0]).toMatchObject({ status: 'failed', error: reason, cause: 'npx-needs-yes', fix });
  });
});
