// Bundles src/ into dist/ with esbuild. Bundling is for startup time: unbundled, Node resolves and
// reads hundreds of files (mathjs alone ~0.7 s). Separate builds, so that each process loads few files:
// - the CLI, split: a command loads its own chunks, heavy ones (Ajv, the MCP SDK) only when used;
// - the library entry (import 'toolrun'), split the same way in its own folder;
// - the tool workers, one file each (math_eval, internal tools): a thread loads all it needs at once;
// - the warm exec path, one file (see src/fast-exec.ts);
// - the CLI's and the holder's chunks then turned into CommonJS, with V8's code cache for each
//   (scripts/chunks-to-commonjs.js, src/load-chunk.ts).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { buildInputsDigest, INPUTS_STAMP, inputsStamp } from './build-inputs.js';
import { chunksToCommonJs, REQUIRE_BANNER } from './chunks-to-commonjs.js';

const root = new URL('..', import.meta.url);

// `npx toolrun` (npm exec) in a clone installs the clone into npm's npx cache as a link; `npm link`
// and `npm install -g .` link it globally. Each time npm runs `prepare` on this very folder, which
// `npm install` has just built: a second full build (84 s on a loaded 2-core machine; the first
// `npx toolrun` took 4 s without it). A folder already built is left as it is then; `npm install`,
// `npm ci` and `npm run build` in the folder always build. (npx never rebuilt reliably anyway: only
// its first run in a clone ran prepare.)
const command = process.env.npm_command ?? '';
const linkedByNpm = process.env.npm_lifecycle_event === 'prepare' && (command === 'exec' || command === 'link' || (command === 'install' && process.env.npm_config_global === 'true'));
if (linkedByNpm && existsSync(new URL('dist/cli.cjs', root)) && existsSync(new URL('dist/types/index.d.ts', root))) process.exit(0);

// Taken before anything is read: a file saved during the build makes the next `npm test` build again.
const inputsDigest = buildInputsDigest(root.pathname);
rmSync(new URL('dist', root), { recursive: true, force: true });

// commander requires child_process at load time, for executable subcommands toolrun does not use;
// child_process pulls in net, dgram and the stream stack (~4 ms of every start). Give commander a
// stand-in that loads the real module on first use.
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (/[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      contents: "let real; module.exports = new Proxy({}, { get: (_, key) => (real ??= require('node:child_process'))[key] });",
      loader: 'js',
    }));
  },
};

// What a config is checked against: a config found valid is not checked again until this changes
// (src/cache/valid-configs.ts).
const configSchemaDigest = createHash('sha256')
  .update(readFileSync(new URL('toolrun.schema.json', root)))
  .update(readFileSync(new URL('src/config/config-validator.generated.js', root)))
  .update(readFileSync(new URL('src/config/check-config.ts', root)))
  .digest('hex')
  .slice(0, 16);

const common = {
  plugins: [lazyChildProcessForCommander],
  define: { __TOOLRUN_CONFIG_SCHEMA_DIGEST__: JSON.stringify(configSchemaDigest) },
  absWorkingDir: root.pathname,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Prefer ESM builds: jsonc-parser's "main" is a UMD file whose internal requires esbuild cannot follow.
  mainFields: ['module', 'main'],
  minify: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'none',
  metafile: true,
  // Bundled CommonJS dependencies call require() for Node built-ins; ESM has none, so provide one.
  banner: { js: REQUIRE_BANNER },
};

/**
 * A path answered before the CLI loads (warm exec, hosts, completion): one CommonJS file of its
 * own, outside the CLI's chunks. CommonJS imports Node's builtins without building their ESM
 * facades and loads without the ESM loader's linking; `external` stays in node_modules, loaded
 * only when that path needs it.
 */
function fastEntry(name, file, external) {
  // import() becomes a require() a tick later, as in the CLI's chunks: load-chunk.cjs runs these files
  // as scripts (with a code cache), where Node 20 has no import() (scripts/chunks-to-commonjs.js).
  return build({
    ...common,
    entryPoints: { [name]: file },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    banner: {},
    splitting: false,
    external,
    supported: { 'dynamic-import': false },
  });
}

/**
 * The CLI's start path as one file. Code splitting leaves what every run loads (the entry and the
 * chunks it imports statically) in ~45 files, because each is shared with a different set of lazily
 * loaded chunks; the ESM loader resolves, reads and links each one (~0.8 ms a file on a 2-core
 * machine, a third of toolrun's start). So those chunks are bundled into the entry, which then
 * exports what the lazy chunks take from them, and each becomes a one-line module that re-exports it
 * from the entry: one instance of every module, the lazy chunks unchanged. (The entry must not use
 * a top-level await: a lazy chunk imports it while the CLI runs.)
 */
async function mergeStartPath(metafile, entry) {
  const outputs = metafile.outputs;
  const merged = new Set();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop();
    for (const imported of outputs[file].imports) {
      if (imported.kind !== 'import-statement' || imported.external || merged.has(imported.path)) continue;
      merged.add(imported.path);
      queue.push(imported.path);
    }
  }
  const chunks = [...merged].map((path, index) => ({ path, name: path.slice('dist/'.length), exports: outputs[path].exports, prefix: `__start${index}_` }));
  const mergeEntry = new URL('dist/.start-path.js', root);
  writeFileSync(
    mergeEntry,
    [
      `import './${entry.slice('dist/'.length)}';`,
      ...chunks.filter((chunk) => chunk.exports.length > 0).map((chunk) => `export { ${chunk.exports.map((name) => `${name} as ${chunk.prefix}${name}`).join(', ')} } from './${chunk.name}';`),
    ].join('\n'),
  );
  const startPath = new Set(chunks.map((chunk) => `./${chunk.name}`));
  await build({
    ...common,
    banner: {},
    metafile: false,
    entryPoints: [mergeEntry.pathname],
    outfile: entry,
    allowOverwrite: true,
    splitting: false,
    plugins: [
      {
        name: 'lazy-chunks-stay-apart',
        setup(build) {
          build.onResolve({ filter: /^\.\/chunk-/ }, (args) => (startPath.has(args.path) ? undefined : { path: args.path, external: true }));
        },
      },
    ],
  });
  rmSync(mergeEntry);
  // The lazy chunks import what they take from the start path straight from the entry (a stub is one
  // more file to load); the stubs stay for a dynamic import of such a chunk.
  const owner = `./${entry.slice('dist/'.length)}`;
  const prefixOf = new Map(chunks.map((chunk) => [`./${chunk.name}`, chunk.prefix]));
  const renamed = (specifiers, prefix) =>
    specifiers
      .split(',')
      .map((specifier) => {
        const [name, local = name] = specifier.split(' as ');
        return `${prefix}${name} as ${local}`;
      })
      .join(',');
  for (const output of Object.keys(outputs)) {
    if (!output.endsWith('.js') || output === entry || merged.has(output)) continue;
    const path = new URL(output, root);
    const code = readFileSync(path, 'utf8');
    const rewritten = code
      .replace(/\b(import|export)\{([^}]*)\}from"(\.\/chunk-[A-Z0-9]+\.js)"/g, (statement, keyword, specifiers, from) =>
        prefixOf.has(from) ? `${keyword}{${renamed(specifiers, prefixOf.get(from))}}from"${owner}"` : statement,
      )
      .replace(/\bimport"(\.\/chunk-[A-Z0-9]+\.js)"/g, (statement, from) => (prefixOf.has(from) ? `import"${owner}"` : statement));
    if (rewritten !== code) writeFileSync(path, rewritten);
  }
  for (const chunk of chunks) {
    const stub =
      chunk.exports.length > 0
        ? `export { ${chunk.exports.map((name) => `${chunk.prefix}${name} as ${name}`).join(', ')} } from './${entry.slice('dist/'.length)}';\n`
        : `import './${entry.slice('dist/'.length)}';\n`;
    writeFileSync(new URL(chunk.path, root), stub);
    rmSync(new URL(`${chunk.path}.map`, root), { force: true });
  }
}

const results = await Promise.all([
  build({ ...common, entryPoints: { cli: 'src/main.ts' }, outdir: 'dist', splitting: true, chunkNames: 'chunk-[hash]' }),
  build({ ...common, entryPoints: { index: 'src/index.ts' }, outdir: 'dist/lib', splitting: true, chunkNames: 'chunk-[hash]' }),
  build({ ...common, entryPoints: { 'math-worker': 'src/tools/worker/math-worker.ts', 'internal-worker': 'src/tools/worker/internal-worker.ts' }, outdir: 'dist', splitting: false }),
  // The warm exec path (src/fast-exec.ts, run by bin/toolrun.js before the CLI loads) as two small
  // files of their own: the check, and the call. A score of chunks would cost more than the call,
  // and outside the CLI's graph they leave its chunks (and startup) as they were.
  // chalk and ora stay outside: loaded from node_modules only on a terminal that shows color or a spinner.
  // CommonJS: a CommonJS module imports Node's builtins without building their ESM facades (node:fs
  // alone pulls in streams and fs/promises that way), and loads without the ESM loader's linking.
  // Its fast paths and load-chunk.cjs stay files of their own: it loads them by path.
  fastEntry('fast-exec', 'src/fast-exec.ts', ['./load-chunk.cjs']),
  // The session holder: one long-lived process, built apart so its modules stay out of the CLI's graph.
  build({ ...common, entryPoints: { 'session-holder': 'src/session/holder-main.ts' }, outdir: 'dist', splitting: true, chunkNames: 'chunk-holder-[hash]' }),
  // Ajv and execa (and what they bring) stay outside too: only a server that asks back through the holder needs them.
  fastEntry('fast-warm-exec', 'src/session/fast-warm-exec.ts', ['chalk', 'ora', 'ajv', 'ajv-formats', 'execa']),
  // `toolrun hosts` before the CLI loads (src/fast-hosts.ts): one CommonJS file, for the same reasons.
  // The YAML and TOML parsers stay outside: loaded from node_modules only when a host file needs them.
  fastEntry('fast-hosts', 'src/fast-hosts.ts', ['chalk', 'ora', 'yaml', 'smol-toml']),
  // `toolrun __complete` (shell completion, src/fast-complete.ts): one CommonJS file, for the same reasons.
  fastEntry('fast-complete', 'src/fast-complete.ts', ['chalk', 'ora', 'yaml', 'smol-toml']),
  // `toolrun mcp mock SOURCE` over stdio (src/fast-mock.ts): a mock answers within 150 ms of its spawn.
  // Ajv stays outside: loaded from node_modules only when a call's arguments are checked.
  fastEntry('fast-mock', 'src/fast-mock.ts', ['chalk', 'ora', 'ajv', 'ajv-formats', 'yaml', 'smol-toml', 'execa']),
  // What loads the CLI's and the holder's chunks with their code cache, once they are CommonJS (below).
  fastEntry('load-chunk', 'src/load-chunk.ts', []),
  // mathjs as a CommonJS script, so the math worker can load it with a V8 code cache.
  build({ ...common, entryPoints: { 'math-evaluate': 'src/tools/math-evaluate.ts' }, outdir: 'dist', outExtension: { '.js': '.cjs' }, format: 'cjs', banner: {}, sourcemap: false }),
]);
await mergeStartPath(results[0].metafile, 'dist/cli.js');
// Last of the bundles: the CLI's and the holder's chunks, as CommonJS with a V8 code cache each.
await chunksToCommonJs(new URL('dist', root).pathname);
execFileSync(process.execPath, [new URL('make-code-cache.cjs', import.meta.url).pathname], { stdio: 'inherit' });
// Then the chunks' caches are trained on a few runs of the built CLI (scripts/train-code-cache.cjs).
execFileSync(process.execPath, [new URL('train-code-cache.cjs', import.meta.url).pathname], { stdio: 'inherit' });
writeFileSync(new URL('dist/meta.json', root), JSON.stringify(results.map((result) => result.metafile)));

// Type declarations for the library API (import { ToolExecutor } from 'toolrun'). tsc checks the whole
// program to emit them, and exits non-zero on any error, which fails the build here.
const types = !process.argv.includes('--no-types');
if (types) {
  execFileSync(process.execPath, [new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname, '--emitDeclarationOnly', '-p', 'tsconfig.json'], { stdio: 'inherit', cwd: root.pathname });
}
// Last: only a build that got this far says what it was built from, and whether it type-checked it (scripts/build-inputs.js).
writeFileSync(new URL(INPUTS_STAMP, root), inputsStamp(inputsDigest, { types }));
