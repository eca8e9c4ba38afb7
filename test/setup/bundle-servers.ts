// vitest's globalSetup: bundles the servers test/helpers/bundled-servers.ts names, once per run, before
// any test file starts one of them.
import { build } from 'esbuild';
import { serverBundles } from '../helpers/bundled-servers.js';

// Bundled ESM still meets CommonJS dependencies that call require(): give them one.
const REQUIRE_SHIM = "import { createRequire as __toolrunTestRequire } from 'node:module'; const require = __toolrunTestRequire(import.meta.url);";

export default async function bundleServers(): Promise<void> {
  await Promise.all(
    serverBundles().map(({ entry, outfile }) =>
      build({ entryPoints: [entry], outfile, bundle: true, minify: true, platform: 'node', format: 'esm', target: 'node20', banner: { js: REQUIRE_SHIM }, logLevel: 'error' }),
    ),
  );
}
