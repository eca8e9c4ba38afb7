// A server script written as an ES module may use await at its top level (`await server.connect(…)`),
// which a CommonJS bundle cannot hold. Its statements after the imports are run inside an async
// function instead: the same statements in the same order, each await still waiting for the one before.
import type { Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** An esbuild plugin that gives each of `entries` (absolute paths) to esbuild with its body wrapped. */
export function topLevelAwaitPlugin(entries: readonly string[]): Plugin {
  return {
    name: 'entry-top-level-await',
    setup(build) {
      // Matched by esbuild itself: a filter that let every file through cost a call into Node each, ~2 s a bundle.
      const filter = new RegExp(`^(?:${entries.map((entry) => entry.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);
      build.onLoad({ filter }, async ({ path }) => ({ contents: wrapTopLevelAwait(await readFile(path, 'utf8'), path), loader: 'js', resolveDir: dirname(path) }));
    },
  };
}

/**
 * The file's head (comments and its imports, which every script here keeps at the top) as it is, then
 * everything else inside `(async () => { … })()`. A rejection ends the process with exit code 1 and the
 * error on stderr, as an uncaught one at an ES module's top level does. Line-based rather than a parser
 * (TypeScript's took 1.3 s to load); a script this cannot split is refused with the reason, never
 * wrapped wrongly.
 */
export function wrapTopLevelAwait(text: string, path: string): string {
  const lines = text.split('\n');
  let bodyStart = 0;
  let inImport = false;
  let inComment = false;
  for (; bodyStart < lines.length; bodyStart++) {
    const line = lines[bodyStart]!.trim();
    if (inComment) inComment = !line.includes('*/');
    else if (inImport) inImport = !/['"];?$/.test(line);
    else if (line.startsWith('/*')) inComment = !line.includes('*/');
    else if (/^import[\s{*'"]/.test(line)) inImport = !/['"];?$/.test(line);
    else if (!(line === '' || line.startsWith('//') || line.startsWith('#!'))) break;
  }
  // `export {}`, which TypeScript writes to mark a file as a module, exports nothing: dropped.
  const body = lines.slice(bodyStart).filter((line) => line.trim() !== 'export {};');
  const misplaced = body.find((line) => /^(?:import[\s{*'"]|export\s)/.test(line));
  if (misplaced !== undefined) throw new Error(`${path}: cannot wrap a script with an import after its code or an export: ${misplaced}`);
  // The shebang is kept as an empty line, so the head keeps its line numbers.
  const head = lines.slice(0, bodyStart).map((line) => (line.startsWith('#!') ? '' : line));
  return `${head.join('\n')}\n(async () => {\n${body.join('\n')}\n})().catch((error) => {\n  console.error(error);\n  process.exit(1);\n});\n`;
}
