// vitest's globalSetup: bundles the servers test/helpers/bundled-servers.ts names, once per run, before
// any test file starts one of them; then starts the most-started once each, so that V8's code cache of
// what a start compiles is on disk for the launcher (test/setup/server-launcher.cjs) the tests run.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { serverBundles } from '../helpers/bundled-servers.js';
import { ROOT } from '../helpers/run-toolrun.js';
import { topLevelAwaitPlugin } from './wrap-top-level-await.js';

const LAUNCHER = new URL('server-launcher.cjs', import.meta.url).pathname;
/** Every bundle is written somewhere under node_modules/ (one folder for esbuild's outdir). */
const OUT_ROOT = join(ROOT, 'node_modules');

export default async function bundleServers(): Promise<() => void> {
  const bundles = serverBundles();
  // V8 checks a cache against its source's length, not its text: one left from another bundle must go.
  for (const { cache } of bundles) rmSync(cache, { force: true });
  // One build for all: each module they share (the SDK, zod) is read and parsed once, not once per
  // server (16 builds took ~3 s of wall on two busy cores, this one ~1 s).
  await build({
    entryPoints: bundles.map(({ entry, bundle }) => ({ in: entry, out: relative(OUT_ROOT, bundle).replace(/\.cjs$/, '') })),
    outdir: OUT_ROOT,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    minify: true,
    platform: 'node',
    // CommonJS, because Node 20 keeps no code cache for an ES module (vm.Script takes one).
    format: 'cjs',
    target: 'node20',
    // Strict, as the ES modules it is built from; import.meta.url is the launcher's URL.
    banner: { js: "'use strict';var __toolrunImportMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
    define: { 'import.meta.url': '__toolrunImportMetaUrl' },
    plugins: [topLevelAwaitPlugin(bundles.map(({ entry }) => entry))],
    logLevel: 'error',
  });
  for (const { launcher } of bundles) copyFileSync(LAUNCHER, launcher);
  // In the background, beside the first test files: a server started before its cache is written is
  // compiled as usual. Waiting for them took ~2 s of wall before any test could start.
  const warming = bundles.filter(({ warmUp }) => warmUp).map(({ launcher, args }) => warmUp(launcher, args));
  return () => {
    for (const child of warming) child.kill('SIGKILL');
  };
}

// What a test does first with a stdio server: the handshake and the lists. A server on HTTP, or one
// that refuses, is ended after WARM_UP_MS with what its start compiled.
const WARM_UP_MESSAGES = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'toolrun-tests', version: '0' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  { jsonrpc: '2.0', id: 3, method: 'resources/list' },
  { jsonrpc: '2.0', id: 4, method: 'prompts/list' },
];
const LAST_ID = 4;
const WARM_UP_MS = 5000;

/** Runs the launcher once with TOOLRUN_TEST_WRITE_V8_CACHE, until it has answered the last listing (or WARM_UP_MS). */
function warmUp(launcher: string, args: string[]): ChildProcess {
  const child = spawn(process.execPath, [launcher, ...args], { env: { ...process.env, TOOLRUN_TEST_WRITE_V8_CACHE: '1' }, stdio: ['pipe', 'pipe', 'ignore'] });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    child.kill('SIGTERM');
  };
  const timer = setTimeout(end, WARM_UP_MS);
  timer.unref();
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    if (lines.some((line) => line.includes(`"id":${LAST_ID}`))) end();
  });
  child.stdin!.on('error', () => {
    // A server that exited before reading: its cache is written at its exit.
  });
  child.stdin!.write(WARM_UP_MESSAGES.map((message) => `${JSON.stringify(message)}\n`).join(''));
  child.once('exit', () => clearTimeout(timer));
  return child;
}
