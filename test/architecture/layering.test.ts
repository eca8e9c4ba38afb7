import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-toolrun.js';

/**
 * The layers of src/, lowest first (STYLE.md: the engine free of terminal code, nothing lower
 * importing upward). A folder may import its own layer's folders and any lower layer, never a higher
 * one; files at the top of src/ are the entry points, above everything.
 */
const LAYERS: string[][] = [
  ['errors.ts', 'version.ts', 'lazy-crypto.ts', 'run-environment.ts', 'secrets', 'protocol', 'input', 'files', 'http', 'text'],
  ['trace'],
  ['process'],
  ['scan'],
  ['record'],
  ['schema'],
  ['registry'],
  ['config', 'args'],
  ['elicit'],
  ['auth'],
  ['executor'],
  ['tools'],
  ['mcp', 'sampling'],
  ['assembly'],
  ['extensions'],
  ['doctor', 'tap', 'cache', 'timing', 'check-stdout', 'hosts', 'conform', 'snapshot', 'testing', 'lint', 'lock', 'mock', 'serve', 'verify'],
  ['eval'],
  ['output'],
  ['cli-support'],
  ['completion'],
  ['session'],
  ['shell'],
  ['commands'],
  ['cli.ts', 'fast-exec.ts', 'fast-hosts.ts', 'fast-complete.ts', 'fast-mock.ts', 'load-chunk.ts', 'main.ts', 'index.ts'],
];

const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of every file, type-only ones included (they are dependencies of the design too). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const imports = ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map((imported) => imported.fileName)
      .filter((name) => name.startsWith('.'))
      // A built name stands for its source: `./x.js` (ES module), `./x.cjs` (a file the build makes CommonJS).
      .map((name) => resolve(dirname(file), name).replace(/\.c?js$/, '.ts'));
    graph.set(
      relative(SRC, file),
      imports.map((path) => relative(SRC, path)),
    );
  }
  return graph;
}

/** The layer unit of a file: its folder under src/, or the file itself at the top. */
function unitOf(file: string): string {
  return file.includes('/') ? file.split('/')[0]! : file;
}

function layerOf(unit: string): number {
  const index = LAYERS.findIndex((layer) => layer.includes(unit));
  if (index === -1) throw new Error(`src/${unit} is in no layer: add it to LAYERS in test/architecture/layering.test.ts`);
  return index;
}

/** Strongly connected groups of more than one node (Tarjan), each sorted. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('source layering', () => {
  const graph = importGraph();

  it('has no import cycle between files', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has no import cycle between folders', () => {
    const folders = new Map<string, string[]>();
    for (const [file, imports] of graph) {
      const unit = unitOf(file);
      const targets = folders.get(unit) ?? [];
      for (const imported of imports) if (unitOf(imported) !== unit) targets.push(unitOf(imported));
      folders.set(unit, targets);
    }
    expect(cycles(folders)).toEqual([]);
  });

  it('never imports from a higher layer', () => {
    const upward: string[] = [];
    for (const [file, imports] of graph) {
      for (const imported of imports) {
        if (layerOf(unitOf(imported)) > layerOf(unitOf(file))) upward.push(`${file} -> ${imported}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('keeps terminal code out of the engine: chalk and ora only in output/, commands/, session/ and the entry points', () => {
    // Every way a file can load a package counts: `import … from`, `export … from`, `import('ora')`
    // (how output/ loads both, so a terminal never pays for them unless it draws) and `require`.
    const terminalCode = (file: string) => ts.preProcessFile(readFileSync(join(SRC, file), 'utf8'), true, true).importedFiles.some((imported) => /^(chalk|ora)(\/|$)/.test(imported.fileName));
    const users = [...graph.keys()].filter(terminalCode);
    // The check finds the files known to load them, so it cannot pass by matching nothing.
    expect(users).toEqual(expect.arrayContaining(['output/style.ts', 'output/terminal.ts']));
    const engine = users.filter((file) => layerOf(unitOf(file)) <= layerOf('check-stdout'));
    expect(engine).toEqual([]);
  });
});
