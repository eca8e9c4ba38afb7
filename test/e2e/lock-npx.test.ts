import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PACKAGE, npxEnvironment, startFakeRegistry, type FakeRegistry } from '../helpers/fake-registry.js';
import { runCleanInProcess } from '../helpers/run-in-process.js';
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
    expect(result.stderr.split('\n')).toEqual([
      `⚠ fx: unpinned launch: npx runs ${FIXTURE_PACKAGE} without a version: each start may run a newer release; pin it (${FIXTURE_PACKAGE}@X.Y.Z)`,
      'wrote toolrun.lock: 1 server, 1 tool',
    ]);
    const lock = JSON.parse(readFileSync(join(dir, 'toolrun.lock'), 'utf8'));
    expect(lock.servers.fx.package).toEqual({ name: FIXTURE_PACKAGE, resolved: '1.0.0', runner: 'npx', spec: FIXTURE_PACKAGE });
    expect(lock.servers.fx.server).toEqual({ name: FIXTURE_PACKAGE, version: '1.0.0' });
  });
});
