// The MCP servers the suite starts most, each bundled into one file before the tests run (vitest's
// globalSetup, test/setup/bundle-servers.ts) and started through a launcher that gives V8 the code it
// compiled on the globalSetup's warm-up run (test/setup/server-launcher.cjs). The same code runs, but
// Node no longer resolves and compiles a few hundred SDK and zod modules per start: a start of
// server-everything costs ~0.27 s of CPU instead of ~0.55 s, and the suite starts these servers ~400 times.
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
  'skills-server.js',
  'slow-tool-server.js',
  'v2-sampling-server.js',
  'v2-server.js',
  'zwave-server.js',
];

/**
 * server-everything's launcher sits in its dist/resources/ folder: the modules there find dist/docs/ as
 * `../docs` from their own URL (`import.meta.url`), which in the bundle is the launcher's path.
 */
export const BUNDLED_EVERYTHING = join(EVERYTHING_DIST, 'resources', 'bundled-for-toolrun-tests.cjs');

/** The file to run for fixtures/servers/FILE: its bundle's launcher when it has one. */
export function fixtureServerScript(file: string): string {
  return SDK_FIXTURE_SERVERS.includes(file) ? join(BUNDLES, file.replace(/\.js$/, '.cjs')) : join(FIXTURES, 'servers', file);
}

/**
 * Every bundle to build: its entry point, the launcher the tests run (NAME.cjs), the bundle it runs
 * (NAME.bundle.cjs), the code cache beside them (NAME.v8-cache), and whether (and with what arguments)
 * the globalSetup runs it once to make that cache.
 */
export function serverBundles(): Array<{ entry: string; launcher: string; bundle: string; cache: string; args: string[]; warmUp: boolean }> {
  const files = (launcher: string) => ({ launcher, bundle: launcher.replace(/\.cjs$/, '.bundle.cjs'), cache: launcher.replace(/\.cjs$/, '.v8-cache') });
  return [
    { entry: EVERYTHING_DIST_INDEX, ...files(BUNDLED_EVERYTHING), args: ['stdio'], warmUp: true },
    ...SDK_FIXTURE_SERVERS.map((file) => ({ entry: join(FIXTURES, 'servers', file), ...files(fixtureServerScript(file)), args: [], warmUp: WARMED_UP.includes(file) })),
  ];
}

/**
 * The fixtures started often enough (8 to 80 times a run) to be worth a warm-up run (~0.45 s of CPU)
 * for a cache that saves ~0.1 s a start; the others run through the launcher uncached, compiled as
 * before. setsid-helper-server could not be: it leaves a helper running by design.
 */
const WARMED_UP = [
  'exit-mid-call-server.js',
  'flaky-server.js',
  'needs-token-server.js',
  'polluting-server.js',
  'shutdown-recorder-server.js',
  'skills-server.js',
  'slow-tool-server.js',
  'v2-server.js',
  'zwave-server.js',
];
