import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PACKAGE, npxEnvironment, startFakeRegistry, type FakeRegistry } from '../helpers/fake-registry.js';
import { runCleanInProcess } from '../helpers/run-in-process.js';
import { ROOT } from '../helpers/run-toolrun.js';
import { tempDir, writeTempConfig } from '../helpers/temp-config.js';

// SPEC §24: an `npx PACKAGE` launch without a version is warned as unpinned, and the lock records
// the version npx installed (read from its cache), against a registry on loopback (fake-registry.ts).
let registry: FakeRegistry;
beforeAll(async () => {
  registry = await startFakeRegistry();
}, 60_000);
afterAll(() => registry?.close());

describe('toolrun lock of an npx launch', () => {
  it('warns that the launch is unpinned and records the version npx resolved', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const config = writeTempConfig({ mcpServers: { fx: { command: 'npx', args: ['-y', FIXTURE_PACKAGE], env: npxEnvironment(registry, tempDir()) } } });
    const result = await runCleanInProcess(['--config', config, 'lock'], { cwd: dir });
    expect(result.exitCode).toBe(0);
    // "npx is downloading…" is said only when the download outlasts a delay: a loaded machine's line, not the lock's.
    expect(result.stderr.split('\n').filter((line) => !line.startsWith('npx is downloading'))).toEqual([
      `⚠ fx: unpinned launch: npx runs ${FIXTURE_PACKAGE} without a version: each start may run a newer release; pin it (${FIXTURE_PACKAGE}@X.Y.Z)`,
      'wrote toolrun.lock: 1 server, 1 tool',
    ]);
    const lock = JSON.parse(readFileSync(join(dir, 'toolrun.lock'), 'utf8'));
    expect(lock.servers.fx.package).toEqual({ name: FIXTURE_PACKAGE, resolved: '1.0.0', runner: 'npx', spec: FIXTURE_PACKAGE });
    expect(lock.servers.fx.server).toEqual({ name: FIXTURE_PACKAGE, version: '1.0.0' });
  });
});

describe('toolrun lock of a docker run launch', () => {
  it('records the digest the engine resolved the image to; --check names a new image behind the same tag', { timeout: 60_000 }, async () => {
    // A docker on PATH that runs the rug server for `run` and answers `image inspect` from a file, as the engine does.
    const dir = tempDir();
    const digests = join(dir, 'digests.json');
    const docker = join(dir, 'docker');
    writeFileSync(docker, '#!/bin/sh\nif [ "$1" = run ]; then exec "$FAKE_NODE" "$FAKE_SERVER"; fi\nif [ "$1" = image ] && [ "$2" = inspect ]; then cat "$FAKE_DIGESTS"; exit 0; fi\nexit 1\n');
    chmodSync(docker, 0o755);
    const digest = (hex: string) => writeFileSync(digests, `${JSON.stringify([`docker.io/other/x@sha256:${'f'.repeat(64)}`, `mcp/notes@sha256:${hex.repeat(64)}`])}\n`);
    const env = { FAKE_NODE: process.execPath, FAKE_SERVER: join(ROOT, 'fixtures', 'servers', 'rug-server.js'), FAKE_DIGESTS: digests, PATH: `${dir}:${process.env.PATH}` };
    const config = writeTempConfig({ mcpServers: { notes: { command: 'docker', args: ['run', '-i', '--rm', 'mcp/notes:latest'], env } } });
    const run = (args: string[]) => runCleanInProcess(['--config', config, ...args], { cwd: dir, env: { PATH: env.PATH } });
    digest('a');
    const written = await run(['lock']);
    expect(written.stderr.split('\n')).toEqual([
      '⚠ notes: unpinned launch: docker runs mcp/notes:latest: the tag can point at another image tomorrow; pin it by digest (mcp/notes@sha256:…)',
      'wrote toolrun.lock: 1 server, 2 tools',
    ]);
    expect(JSON.parse(readFileSync(join(dir, 'toolrun.lock'), 'utf8')).servers.notes.image).toEqual({ ref: 'mcp/notes:latest', resolved: `sha256:${'a'.repeat(64)}` });
    expect((await run(['lock', '--check'])).exitCode).toBe(0);
    digest('b');
    const check = await run(['lock', '--check']);
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toContain(`changed   notes/image.resolved — mcp/notes:latest is now the image sha256:${'b'.repeat(64)}, pinned sha256:${'a'.repeat(64)}: another image runs`);
  });
});
