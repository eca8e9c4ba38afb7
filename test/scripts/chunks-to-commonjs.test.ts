import { execa } from 'execa';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chunksToCommonJs, REQUIRE_BANNER as BANNER } from '../../scripts/chunks-to-commonjs.js';
import { ROOT } from '../helpers/run-toolrun.js';

const DIST = join(ROOT, 'dist');

interface Loader {
  loadChunk(specifier: string): Record<string, unknown>;
  compileChunk(file: string, cachedData: Buffer | undefined): { cachedDataRejected?: boolean };
  makeChunkCache(file: string): Buffer;
}

/** A dist/ folder of ES module chunks as esbuild writes them, with the built loader beside them, converted. */
async function convertedDist(chunks: Record<string, string>): Promise<{ dist: string; loader: Loader }> {
  const dist = mkdtempSync(join(tmpdir(), 'toolrun-chunks-'));
  copyFileSync(join(DIST, 'load-chunk.cjs'), join(dist, 'load-chunk.cjs'));
  for (const [name, code] of Object.entries(chunks)) writeFileSync(join(dist, name), code);
  await chunksToCommonJs(dist);
  // Its own copy of the loader, so its own set of loaded chunks.
  return { dist, loader: createRequire(import.meta.url)(join(dist, 'load-chunk.cjs')) as Loader };
}

describe('the CLI chunks as CommonJS with a code cache (scripts/chunks-to-commonjs.js, src/load-chunk.ts)', () => {
  it('keeps ES module semantics: live bindings, one instance per chunk, cycles, import() of chunks and builtins, strict mode, import.meta.url', async () => {
    const { dist, loader } = await convertedDist({
      'cli.js': `${BANNER}import{count as n,bump as b}from"./chunk-COUNTER.js";import{seenFromOther as o}from"./chunk-CYCLE.js";var seen=[n];b();seen.push(n);export{seen,o as fromCycle};export const strict=(function(){return this})()===undefined;export const url=import.meta.url;export const loadCounter=()=>import("./chunk-COUNTER.js");export const loadPath=()=>import("node:path");\n//# sourceMappingURL=cli.js.map\n`,
      'cli.js.map': '{}',
      'chunk-COUNTER.js': `${BANNER}var count=0;function bump(){count++}export{count,bump};\n`,
      'chunk-CYCLE.js': `${BANNER}import{seen as s}from"./cli.js";export function seenFromOther(){return s}\n`,
    });
    const cli = loader.loadChunk('./cli.js');
    expect(cli.seen).toEqual([0, 1]);
    expect(cli.strict).toBe(true);
    expect(cli.url).toBe(pathToFileURL(join(dist, 'cli.js')).href);
    expect((cli.fromCycle as () => unknown)()).toBe(cli.seen);
    const counter = (await (cli.loadCounter as () => Promise<Record<string, unknown>>)()) as { count: number; bump: () => void };
    counter.bump();
    expect(counter.count).toBe(2);
    expect(loader.loadChunk('./chunk-COUNTER.js').count).toBe(2);
    const path = (await (cli.loadPath as () => Promise<Record<string, unknown>>)()) as { default: unknown; join: unknown };
    expect(path.default).toBe(createRequire(import.meta.url)('node:path'));
    expect(path.join).toBe((path.default as { join: unknown }).join);
    expect(readdirSync(dist).sort()).toEqual(['chunk-COUNTER.cjs', 'chunk-COUNTER.cjs.v8', 'chunk-CYCLE.cjs', 'chunk-CYCLE.cjs.v8', 'cli.cjs', 'cli.cjs.v8', 'load-chunk.cjs']);
  });

  it("points the holder's entry (an ES module with a top-level await) at the loader for the chunks it imports", async () => {
    const { dist } = await convertedDist({
      'session-holder.js': `${BANNER}const{count:c,bump:b}=await import("./chunk-COUNTER.js");b();const{count:again}=await import("./chunk-COUNTER.js");console.log(JSON.stringify([c,again]));\n`,
      'chunk-COUNTER.js': `${BANNER}var count=0;function bump(){count++}export{count,bump};\n`,
    });
    // As in the package: a .js file there is an ES module.
    writeFileSync(join(dist, 'package.json'), '{"type":"module"}');
    const run = await execa(process.execPath, [join(dist, 'session-holder.js')], { reject: false });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('[0,1]');
  });

  it('fails the build on what CommonJS cannot carry, naming the chunk', async () => {
    await expect(convertedDist({ 'chunk-DIR.js': `${BANNER}export const here=import.meta.dirname;\n` })).rejects.toThrow(/chunk-DIR\.js: "import\.meta" is not available/);
  });

  it('runs the CLI all the same when V8 refuses the caches (here: another V8 flag), compiling the chunks as before', async () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const run = await execa(process.execPath, ['--no-lazy-feedback-allocation', join(ROOT, 'bin', 'toolrun.js'), '--version'], { reject: false });
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([0, version, '']);
  });

  it('leaves no ES module chunk in the built dist/, and V8 takes the code cache of every chunk', () => {
    const files = readdirSync(DIST);
    expect(files.filter((file) => file === 'cli.js' || /^chunk-.*\.js(\.map)?$/.test(file))).toEqual([]);
    // The fast paths bin/toolrun.js takes before the CLI (src/fast-exec.ts) are loaded the same way.
    const chunks = files.filter((file) => file === 'cli.cjs' || /^chunk-[\w-]+\.cjs$/.test(file) || /^fast-(warm-exec|hosts|complete|mock)\.cjs$/.test(file));
    expect(chunks.length).toBeGreaterThan(100);
    expect(chunks.filter((file) => file.startsWith('fast-'))).toHaveLength(4);
    const loader = createRequire(import.meta.url)(join(DIST, 'load-chunk.cjs')) as Loader;
    const refused = chunks.filter((chunk) => {
      const file = join(DIST, chunk);
      return loader.compileChunk(file, readFileSync(`${file}.v8`)).cachedDataRejected !== false;
    });
    expect(refused).toEqual([]);
  });

  it("trains the start path's cache on real runs (scripts/train-code-cache.cjs): it holds the functions they ran, not only the top level", () => {
    const loader = createRequire(import.meta.url)(join(DIST, 'load-chunk.cjs')) as Loader;
    const cli = join(DIST, 'cli.cjs');
    const compiledOnly = loader.makeChunkCache(cli).length;
    // 108 KB compiled only, 350 KB trained, when this was written.
    expect(readFileSync(`${cli}.v8`).length).toBeGreaterThan(compiledOnly * 2);
  });
});
