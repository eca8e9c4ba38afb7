// Starts a test server bundled by test/setup/bundle-servers.ts, with V8's code cache. A copy of this
// file sits beside each bundle as NAME.cjs, and the tests run `node NAME.cjs ARGS` as they ran the
// server itself. It runs NAME.bundle.cjs as Node would run a CommonJS file, except that V8 takes the
// code it compiled for it on an earlier run from NAME.v8-cache: compiling a bundle of the SDK and zod
// was ~0.12 s of the ~0.4 s of CPU a start took. A cache V8 refuses (another Node, other V8 flags) is
// ignored and the bundle compiled as usual: only slower.
//
// The bundle gets this file's own path as __filename and as import.meta.url, so a server that finds
// its files from its own URL (server-everything's docs) finds them beside this launcher.
//
// TOOLRUN_TEST_WRITE_V8_CACHE (set only by the globalSetup's warm-up run) writes the cache when the
// process exits or is sent SIGTERM, so it holds the functions that a start and a first listing ran.
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { Script, constants } = require('node:vm');

const bundleFile = __filename.replace(/\.cjs$/, '.bundle.cjs');
const cacheFile = __filename.replace(/\.cjs$/, '.v8-cache');

let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  // No cache yet (the warm-up run makes it): compiled as usual.
}
const script = new Script(Module.wrap(readFileSync(bundleFile, 'utf8')), {
  filename: bundleFile,
  cachedData,
  importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});

if (process.env.TOOLRUN_TEST_WRITE_V8_CACHE) {
  delete process.env.TOOLRUN_TEST_WRITE_V8_CACHE;
  let written = false;
  const writeCache = () => {
    if (written) return;
    written = true;
    writeFileSync(`${cacheFile}.${process.pid}`, script.createCachedData());
    renameSync(`${cacheFile}.${process.pid}`, cacheFile);
  };
  process.on('exit', writeCache);
  // `on`, not `once`: a second SIGTERM while the cache is written then waits, instead of killing the process mid-write.
  process.on('SIGTERM', () => {
    writeCache();
    process.exit(0);
  });
}

script.runInThisContext().call(module.exports, module.exports, require, module, __filename, __dirname);
