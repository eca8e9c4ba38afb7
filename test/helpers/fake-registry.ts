import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { FIXTURES } from './run-toolrun.js';
import { tempDir } from './temp-config.js';

export const FIXTURE_PACKAGE = 'toolrun-fixture-mcp';

export interface FakeRegistry {
  url: string;
  /** How long the tarball download takes (ms): a slow network, so npx is seen installing. */
  tarballDelayMs: number;
  close(): Promise<void>;
}

/**
 * An npm registry on loopback that serves one package (fixtures/npx-package, packed once) and
 * answers 404 for every other name, the way the real one does. npx reaches it through
 * npm_config_registry; nothing leaves the machine.
 */
export async function startFakeRegistry(): Promise<FakeRegistry> {
  const packDir = tempDir();
  await execa('npm', ['pack', join(FIXTURES, 'npx-package'), '--pack-destination', packDir], { env: { npm_config_update_notifier: 'false' } });
  const tarball = readFileSync(
    join(
      packDir,
      readdirSync(packDir).find((file) => file.endsWith('.tgz'))!,
    ),
  );
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  const shasum = createHash('sha1').update(tarball).digest('hex');
  const manifest = JSON.parse(readFileSync(join(FIXTURES, 'npx-package', 'package.json'), 'utf8')) as Record<string, unknown>;
  const registry: FakeRegistry = { url: '', tarballDelayMs: 0, close: async () => {} };
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(request.url ?? '/');
    if (path === `/${FIXTURE_PACKAGE}`) {
      const version = { ...manifest, dist: { tarball: `${registry.url}${FIXTURE_PACKAGE}/-/${FIXTURE_PACKAGE}-1.0.0.tgz`, integrity, shasum } };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ name: FIXTURE_PACKAGE, 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': version } }));
    } else if (path.endsWith('.tgz')) {
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(tarball);
      }, registry.tarballDelayMs);
    } else {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"Not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  registry.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  registry.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return registry;
}

/** The environment that points npx at the fake registry and a fresh, empty cache. */
export function npxEnvironment(registry: FakeRegistry, cache = tempDir()): Record<string, string> {
  return { npm_config_registry: registry.url, npm_config_cache: cache, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
}
