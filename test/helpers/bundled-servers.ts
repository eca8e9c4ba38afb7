// The MCP servers the suite starts most, each bundled into one file before the tests run (vitest's
// globalSetup, test/setup/bundle-servers.ts). The same code runs, but Node no longer resolves and
// compiles a few hundred SDK and zod modules per start: a server's start costs ~0.25 s of CPU
// instead of ~0.55 s, and the suite starts these servers ~300 times.
import { join } from 'node:path';
import { FIXTURES, ROOT } from './run-toolrun.js';

const EVERYTHING_DIST = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist');
const BUNDLES = join(ROOT, 'node_modules', '.cache', 'toolrun-test-servers');

/** server-everything as published, for a test that imports its modules rather than starting it. */
export const EVERYTHING_DIST_INDEX = join(EVERYTHING_DIST, 'index.js');

/** The fixture servers built on an MCP SDK: the ones whose start is mostly module loading. */
export const SDK_FIXTURE_SERVERS = [
  'backend-down-server.js',
  'chatty-stderr-server.js',
  'exit-mid-call-server.js',
  'flaky-server.js',
  'ignore-sigterm-server.js',
  'needs-token-server.js',
  'polluting-server.js',
  'service-down-server.js',
  'session-http-server.js',
  'setsid-helper-server.js',
  'shutdown-recorder-server.js',
  'slow-tool-server.js',
  'v2-sampling-server.js',
  'v2-server.js',
  'zwave-server.js',
];

/**
 * server-everything's bundle sits in its dist/resources/ folder: the modules there find dist/docs/ as
 * `../docs` from their own URL (`import.meta.url`), which in a bundle is the bundle's path.
 */
export const BUNDLED_EVERYTHING = join(EVERYTHING_DIST, 'resources', 'bundled-for-toolrun-tests.mjs');

/** The file to run for fixtures/servers/FILE: its bundle when it has one. */
export function fixtureServerScript(file: string): string {
  return SDK_FIXTURE_SERVERS.includes(file) ? join(BUNDLES, file.replace(/\.js$/, '.mjs')) : join(FIXTURES, 'servers', file);
}

/** Every bundle to build: entry point → output file. */
export function serverBundles(): Array<{ entry: string; outfile: string }> {
  return [
    { entry: join(EVERYTHING_DIST, 'index.js'), outfile: BUNDLED_EVERYTHING },
    ...SDK_FIXTURE_SERVERS.map((file) => ({ entry: join(FIXTURES, 'servers', file), outfile: fixtureServerScript(file) })),
  ];
}
