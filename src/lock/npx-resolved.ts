import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lazyCrypto } from '../lazy-crypto.js';
import { npxCacheFolder } from '../mcp/connect/package-runner.js';

/**
 * The version `npx SPEC` installed into its cache, read from there after the server started
 * (offline: no registry is asked). npm installs a package that is not in the project or global
 * tree into `<cache>/_npx/<hash>/`, where hash is the first 16 hex digits of the SHA-512 of the
 * package specs as given, sorted and joined with newlines (npm/cli
 * workspaces/libnpmexec/lib/index.js, `const hash = crypto.createHash('sha512')…slice(0, 16)`).
 * Undefined when npx ran the package from elsewhere (the project's node_modules, a global install)
 * or the cache cannot be read: the lock then has the version the server reports.
 */
export function npxResolvedVersion(spec: string, packageName: string, env: NodeJS.ProcessEnv): string | undefined {
  const hash = lazyCrypto().createHash('sha512').update(spec).digest('hex').slice(0, 16);
  try {
    const manifest = JSON.parse(readFileSync(join(npxCacheFolder(env), hash, 'node_modules', packageName, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}
