import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Script } from 'node:vm';

/**
 * Loads a CommonJS bundle with V8's code cache for it, made at build time (scripts/build.js).
 * Why: the math worker's mathjs bundle is 650 kB; with the cache V8 skips parsing it and the
 * functions mathjs runs at startup are already compiled, ~30 ms less on every math_eval.
 * Without a usable cache (another Node version) it simply compiles, a little slower.
 */
export function loadCachedScript<T>(file: string): T {
  const cacheFile = `${file}.cache`;
  const source = readFileSync(file, 'utf8');
  const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  const script = new Script(wrapCommonJs(source), { filename: file, cachedData });
  const module = { exports: {} as T };
  (script.runInThisContext() as (exports: T, require: NodeJS.Require, module: { exports: T }) => void)(module.exports, createRequire(file), module);
  return module.exports;
}

/** The same wrapper the code cache was made with: byte-identical source is what V8 checks. */
export function wrapCommonJs(source: string): string {
  return `(function (exports, require, module) {${source}\n})`;
}
