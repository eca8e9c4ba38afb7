// Makes and trains the V8 code caches (dist/NAME.cjs.v8) of what src/load-chunk.ts loads, the last
// step of the build. A cache made when a file is only compiled (chunks-to-commonjs.js for the CLI's
// chunks, FAST_ENTRIES below) holds its top level; V8 still compiles each function the first time it
// runs, on every start. Here each run loads the files with the caches as they stand and, at its exit,
// writes them again with every function it compiled: the runs add up. `exec get_current_datetime`
// went from 46 to 41 ms on a fast 2-core machine (`node -e 0`: 22 ms). A cache V8 refuses at run time
// is ignored, as before.
//
// Run by scripts/build.js as `node scripts/train-code-cache.cjs`; each run is this file again with
// `--run` and the CLI's words, in an empty folder and home, so no config or token of the machine is
// read. A run starts as bin/toolrun.js does: the fast paths first (src/fast-exec.ts), else the CLI.
'use strict';
const { execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const DIST = join(__dirname, '..', 'dist');

/** The fast paths src/fast-exec.ts loads (each built as one file by scripts/build.js). */
const FAST_ENTRIES = ['fast-warm-exec', 'fast-hosts', 'fast-complete', 'fast-mock'];

/**
 * What most runs do first, among what needs no server (a warm exec needs a holder, a mock a source:
 * their caches stay compiled only). Each must exit 0.
 */
const RUNS = [
  ['exec', 'get_current_datetime'],
  ['exec', 'math_eval', 'expression=2+2'],
  ['--json', 'exec', 'get_current_datetime'],
  ['list'],
  ['--help'],
  ['exec', '--help'],
  ['hosts'],
  ['__complete', 'ex'],
  ['__complete', 'exec', ''],
];

if (process.argv[2] === '--run') {
  // The CLI reads its words from process.argv (node, script, ...words), as from bin/toolrun.js.
  process.argv.splice(2, 1);
  const { loadChunk, loadedChunkScripts } = require(join(DIST, 'load-chunk.cjs'));
  process.on('exit', () => {
    for (const { file, script } of loadedChunkScripts()) writeFileSync(`${file}.v8`, script.createCachedData());
  });
  require(join(DIST, 'fast-exec.cjs'))
    .tryFastExec(process.argv, process.env)
    .then((answered) => {
      if (!answered) loadChunk('./cli.js');
    });
} else {
  const { makeChunkCache } = require(join(DIST, 'load-chunk.cjs'));
  for (const name of FAST_ENTRIES) {
    const file = join(DIST, `${name}.cjs`);
    writeFileSync(`${file}.v8`, makeChunkCache(file));
  }
  const home = mkdtempSync(join(tmpdir(), 'toolrun-train-'));
  // The machine's environment (Windows needs its own, SystemRoot and others), with every place a
  // config, a host's file or a token could come from pointed at the empty folder.
  const env = { ...process.env, HOME: home, USERPROFILE: home, APPDATA: join(home, 'appdata'), LOCALAPPDATA: join(home, 'localappdata'), NO_COLOR: '1' };
  for (const name of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR']) env[name] = join(home, name.toLowerCase());
  for (const name of Object.keys(env)) if (name.startsWith('TOOLRUN_') || name === 'BROWSER') delete env[name];
  try {
    for (const words of RUNS) {
      try {
        execFileSync(process.execPath, [__filename, '--run', ...words], { cwd: home, env, stdio: ['ignore', 'ignore', 'pipe'] });
      } catch (error) {
        throw new Error(`training the code caches: \`toolrun ${words.join(' ')}\` failed (${error.status ?? error.signal}): ${String(error.stderr ?? '').trim()}`, { cause: error });
      }
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
