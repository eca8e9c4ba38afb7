// The CLI's and the session holder's ES module chunks, turned into CommonJS that src/load-chunk.ts
// loads with V8's code cache (Node 20 keeps none for an ES module: compiling them was ~0.2 s of a
// cold MCP command's CPU). esbuild does the conversion: an import becomes a require() whose uses
// read its properties, and exports become getters, so live bindings stay live; an import() becomes a
// require() a tick later (the chunks import() only chunks and Node's builtins). A chunk's require()
// goes through the loader, so every chunk still runs once per process. Each NAME.js becomes NAME.cjs
// beside NAME.cjs.v8; its source map goes (it mapped the ES module, not this code).
import { transform } from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** What every ES module file of the build starts with (scripts/build.js): bundled CommonJS calls require() for Node's builtins. */
export const REQUIRE_BANNER = "import{createRequire as __toolrunCreateRequire}from'node:module';const require=__toolrunCreateRequire(import.meta.url);";
const HEADER = '// Loaded by load-chunk.cjs (with NAME.cjs.v8, its V8 code cache), not by Node: see src/load-chunk.ts.\n';
const DYNAMIC_CHUNK_IMPORT = /\bimport\("(\.\/chunk-[\w-]+\.js)"\)/g;
const SOURCE_MAP_COMMENT = /\n\/\/# sourceMappingURL=\S+\s*$/;

/**
 * Converts dist/cli.js and dist/chunk-*.js (the CLI's, the holder's), and points the holder's entry
 * (dist/session-holder.js, an ES module with a top-level await, kept) at the loader for its chunks.
 */
export async function chunksToCommonJs(dist) {
  const chunks = readdirSync(dist).filter((name) => name === 'cli.js' || /^chunk-[\w-]+\.js$/.test(name));
  await Promise.all(chunks.map((name) => convertChunk(join(dist, name))));
  const holder = join(dist, 'session-holder.js');
  if (existsSync(holder)) importHolderChunksThroughLoader(holder);
  const { makeChunkCache } = createRequire(import.meta.url)(join(dist, 'load-chunk.cjs'));
  for (const name of chunks) {
    const file = join(dist, name.replace(/\.js$/, '.cjs'));
    writeFileSync(`${file}.v8`, makeChunkCache(file));
  }
}

async function convertChunk(file) {
  const code = readFileSync(file, 'utf8');
  // Without the banner: a one-line stub of the start path (scripts/build.js, mergeStartPath).
  const module = (code.startsWith(REQUIRE_BANNER) ? code.slice(REQUIRE_BANNER.length) : code).replace(SOURCE_MAP_COMMENT, '\n');
  // Node's own import() would need vm's importModuleDynamically, which Node 20 flags as experimental
  // on stderr and, tried here, ignored in a script compiled from its code cache: esbuild turns every
  // import() into a require(). Any warning (an import.meta other than .url, which CommonJS lacks) fails the build.
  const { code: commonJs, warnings } = await transform(module, {
    format: 'cjs',
    platform: 'node',
    target: 'node20.19',
    minifyWhitespace: true,
    define: { 'import.meta.url': '__importMetaUrl' },
    supported: { 'dynamic-import': false },
    logLevel: 'silent',
  });
  if (warnings.length > 0) throw new Error(`${file}: ${warnings.map((warning) => warning.text).join('; ')}`);
  writeFileSync(file.replace(/\.js$/, '.cjs'), HEADER + commonJs);
  rmSync(file);
  rmSync(`${file}.map`, { force: true });
}

function importHolderChunksThroughLoader(entry) {
  const code = readFileSync(entry, 'utf8');
  if (!code.startsWith(REQUIRE_BANNER)) throw new Error(`${entry}: not an ES module entry of this build (no require banner)`);
  const body = code.slice(REQUIRE_BANNER.length);
  if (/from"\.\/chunk-/.test(body) || /\bimport"\.\/chunk-/.test(body)) throw new Error(`${entry}: imports a chunk statically; only import() can go through the loader`);
  const loader = "const __importChunk=(chunk)=>require('./load-chunk.cjs').importChunk(chunk);";
  writeFileSync(entry, REQUIRE_BANNER + loader + body.replace(SOURCE_MAP_COMMENT, '\n').replace(DYNAMIC_CHUNK_IMPORT, '__importChunk("$1")'));
  rmSync(`${entry}.map`, { force: true });
}
