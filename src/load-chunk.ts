/**
 * Loads the CLI's and the session holder's chunks (dist/NAME.cjs, built as ES modules and turned
 * into CommonJS by scripts/chunks-to-commonjs.js) with V8's code cache for each (NAME.cjs.v8, made
 * by the same build). Why: Node 20 keeps no code cache for an ES module, and compiling the ~2 MB of
 * chunks a command with an MCP server loads was ~0.2 s of its CPU (compileSourceTextModule);
 * with the cache V8 skips parsing them: a cold exec of a stdio server went from 1.16 to 0.97 s of CPU
 * with the server's own, and a command without servers loads no slower. A cache V8 refuses (another
 * Node, other V8 flags) is ignored and the chunk compiled as usual: only slower.
 *
 * Each chunk is loaded once per process and shared by every chunk that imports it, as the ES
 * module loader did: its exports are getters, so a value a chunk sets later is seen (live bindings).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

interface LoadedChunk {
  exports: unknown;
  /** Kept for the build's training runs (loadedChunkScripts). */
  script?: Script;
}

type ChunkFunction = (exports: unknown, require: (specifier: string) => unknown, module: LoadedChunk, importMetaUrl: string) => void;

/** Where the chunks are: this file is built into the same folder (dist/load-chunk.cjs). */
const CHUNKS = __dirname;
const loaded = new Map<string, LoadedChunk>();

/** The file of `specifier` ("./cli.js", "./chunk-ABC.js", as the ES modules named it). */
function chunkFile(specifier: string): string {
  return join(CHUNKS, specifier.replace(/^\.\//, '').replace(/\.js$/, '.cjs'));
}

/**
 * The chunk's exports, running it first if this process has not. As with ES modules, a chunk that
 * imports one still running (a cycle) gets its exports as they stand.
 */
export function loadChunk(specifier: string): unknown {
  const file = chunkFile(specifier);
  const known = loaded.get(file);
  if (known) return known.exports;
  const chunk: LoadedChunk = { exports: {} };
  loaded.set(file, chunk);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(`${file}.v8`);
  } catch {
    // No cache (a build that made none): compiled as usual.
  }
  const script = compileChunk(file, cachedData);
  chunk.script = script;
  // import.meta.url stays the ES module's own URL: the chunks find files beside them from it (workers, schemas).
  const importMetaUrl = pathToFileURL(file.replace(/\.cjs$/, '.js')).href;
  const requireOther = createRequire(file);
  const requireChunk = (required: string) => (isChunk(required) ? loadChunk(required) : requireOther(required));
  (script.runInThisContext() as ChunkFunction).call(undefined, chunk.exports, requireChunk, chunk, importMetaUrl);
  return chunk.exports;
}

/** A dynamic import() of a chunk, for the holder's entry (an ES module): loadChunk a tick later, as import() resolves. */
export function importChunk(specifier: string): Promise<unknown> {
  return Promise.resolve().then(() => loadChunk(specifier));
}

/**
 * Each chunk this process loaded, with its script: the build's training runs write their code caches
 * at exit (scripts/train-code-cache.cjs), with the functions those runs compiled in them.
 */
export function loadedChunkScripts(): Array<{ file: string; script: Script }> {
  return [...loaded].flatMap(([file, chunk]) => (chunk.script ? [{ file, script: chunk.script }] : []));
}

/** V8's code cache for a chunk: what the build writes beside it (compiled, not run). */
export function makeChunkCache(file: string): Buffer {
  return compileChunk(file, undefined).createCachedData();
}

function isChunk(specifier: string): boolean {
  return /^\.\/(cli|chunk-[\w-]+)\.js$/.test(specifier);
}

/**
 * A chunk compiled, with `cachedData` if given (`cachedDataRejected` then says whether V8 took it).
 * The same wrapper when the cache is made and when it is used: V8 checks a cache against its source.
 * Strict, as the ES module it was.
 */
export function compileChunk(file: string, cachedData: Buffer | undefined): Script {
  const source = readFileSync(file, 'utf8');
  return new Script(`(function (exports, require, module, __importMetaUrl) {'use strict';${source}\n})`, { filename: file, cachedData });
}
