import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-toolrun.js';

// `npm test` must pass on a machine with only Node: a test that runs a tool `npm ci` cannot bring
// skips, saying why, when it is missing. A file that runs one must guard it: `hasSystemTool`,
// `skipIf`, `context.skip()`, or a `[skip]` line of its own.
//
// A tool is found where a program is started (execa, spawn, execFile… and the file's own wrappers
// around them, such as databases.ts's `run(file, args)`), its name followed through the constants it
// comes from (`const CHROMIUM = '/usr/bin/chromium'`, `postgresBin('initdb')`, a list a loop walks).
// A test file reaches a tool through a helper when it uses one of the helper's exports that starts it
// (`tabThenEnter` → tmux, `useBackends` → postgres and redis-server): its guard is the caller's job.
const SYSTEM_TOOLS: Record<string, string> = {
  xmllint: 'xmllint',
  chromium: 'chromium',
  zsh: 'zsh',
  fish: 'fish',
  tmux: 'tmux',
  'redis-server': 'redis-server',
  postgres: 'postgres',
  initdb: 'postgres',
  pg_ctl: 'postgres',
  python3: 'python3',
  // util-linux's `script` (a terminal for the tests of spinners and colors): not on macOS' form.
  script: 'script',
};
const STARTERS = new Set(['execa', 'execaSync', 'spawn', 'spawnSync', 'execFile', 'execFileSync']);
const GUARDED = /hasSystemTool\(|skipIf\(|\.skip\(\)|\[skip\]/;

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const toolOf = (text: string): string | undefined => SYSTEM_TOOLS[basename(text)] ?? SYSTEM_TOOLS[text];

interface FileTools {
  /** The tools a file starts itself. */
  direct: Set<string>;
  /** Per top-level declaration (exported or not), the tools it starts, itself or through others. */
  byDeclaration: Map<string, Set<string>>;
  /** The names a file imports, each with the module it comes from. */
  imports: Map<string, string>;
}

function analyse(path: string): FileTools {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const declarations = new Map<string, ts.Node[]>();
  const imports = new Map<string, string>();
  const collect = (node: ts.Node) => {
    if ((ts.isVariableDeclaration(node) || ts.isFunctionDeclaration(node) || ts.isParameter(node)) && node.name && ts.isIdentifier(node.name)) {
      declarations.set(node.name.text, [...(declarations.get(node.name.text) ?? []), node]);
    }
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = resolve(dirname(path), node.moduleSpecifier.text).replace(/\.js$/, '.ts');
      for (const element of node.importClause?.namedBindings && ts.isNamedImports(node.importClause.namedBindings) ? node.importClause.namedBindings.elements : []) {
        imports.set(element.name.text, `${from}#${(element.propertyName ?? element.name).text}`);
      }
    }
    ts.forEachChild(node, collect);
  };
  collect(source);

  // The tools an expression can name: its string literals, and those of the constants it uses.
  const named = (node: ts.Node, seen = new Set<ts.Node>()): Set<string> => {
    const found = new Set<string>();
    const visit = (inner: ts.Node) => {
      if (ts.isStringLiteralLike(inner)) {
        const tool = toolOf(inner.text);
        if (tool) found.add(tool);
      } else if (ts.isIdentifier(inner)) {
        for (const declaration of declarations.get(inner.text) ?? []) {
          if (seen.has(declaration)) continue;
          seen.add(declaration);
          if (ts.isVariableDeclaration(declaration)) {
            // `for (const python of candidates)`: what the loop walks.
            const loop = declaration.parent.parent;
            const from = declaration.initializer ?? (ts.isForOfStatement(loop) ? loop.expression : undefined);
            if (from) for (const tool of named(from, seen)) found.add(tool);
          }
        }
      }
      ts.forEachChild(inner, visit);
    };
    visit(node);
    return found;
  };

  // A function that passes a parameter on as the program to start is a starter too (`run(file, args)`).
  const wrappers = new Map<string, number>();
  const starterIndex = (call: ts.CallExpression): number | undefined => {
    const callee = ts.isIdentifier(call.expression) ? call.expression.text : undefined;
    if (!callee) return undefined;
    return STARTERS.has(callee) ? 0 : wrappers.get(callee);
  };
  for (let changed = true; changed;) {
    changed = false;
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const index = starterIndex(node);
        const argument = index === undefined ? undefined : node.arguments[index];
        if (argument && ts.isIdentifier(argument)) {
          const parameter = (declarations.get(argument.text) ?? []).find(ts.isParameter);
          const fn = parameter?.parent;
          const holder = fn && (ts.isFunctionDeclaration(fn) ? fn : ts.isVariableDeclaration(fn.parent) ? fn.parent : undefined);
          if (parameter && holder?.name && ts.isIdentifier(holder.name) && !wrappers.has(holder.name.text)) {
            wrappers.set(holder.name.text, (fn as ts.SignatureDeclaration).parameters.indexOf(parameter));
            changed = true;
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  const started = (node: ts.Node): Set<string> => {
    const found = new Set<string>();
    const visit = (inner: ts.Node) => {
      if (ts.isCallExpression(inner)) {
        const index = starterIndex(inner);
        const argument = index === undefined ? undefined : inner.arguments[index];
        if (argument) for (const tool of named(argument)) found.add(tool);
      }
      ts.forEachChild(inner, visit);
    };
    visit(node);
    return found;
  };

  const byDeclaration = new Map<string, Set<string>>();
  const uses = new Map<string, Set<string>>();
  const selfGuarded = new Set<string>();
  for (const statement of source.statements) {
    const names =
      ts.isFunctionDeclaration(statement) && statement.name
        ? [statement.name.text]
        : ts.isVariableStatement(statement)
          ? statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []))
          : [];
    // A helper that checks for its tool itself, says `[skip]` and returns nothing (expectValidJunit
    // validates only where xmllint is) leaves its callers nothing to guard.
    const guardsItself = ts.isFunctionDeclaration(statement) && statement.type?.kind === ts.SyntaxKind.VoidKeyword && statement.getText().includes('[skip]');
    for (const name of names) {
      if (guardsItself) selfGuarded.add(name);
      byDeclaration.set(name, guardsItself ? new Set() : started(statement));
      const referenced = new Set<string>();
      const visit = (inner: ts.Node) => {
        if (ts.isIdentifier(inner)) referenced.add(inner.text);
        ts.forEachChild(inner, visit);
      };
      visit(statement);
      uses.set(name, referenced);
    }
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, referenced] of uses) {
      if (selfGuarded.has(name)) continue;
      const tools = byDeclaration.get(name)!;
      for (const other of referenced) {
        for (const tool of other === name ? [] : (byDeclaration.get(other) ?? [])) {
          if (!tools.has(tool)) {
            tools.add(tool);
            changed = true;
          }
        }
      }
    }
  }
  return { direct: started(source), byDeclaration, imports };
}

/** For each test file, the tools it starts itself or through a helper's export it uses. */
function toolsOfTestFiles(): Map<string, Set<string>> {
  const files = testFiles(join(ROOT, 'test'));
  const analysed = new Map(files.map((path) => [path, analyse(path)]));
  const result = new Map<string, Set<string>>();
  for (const [path, file] of analysed) {
    if (path.includes(`${join('test', 'helpers')}/`) || !path.endsWith('.test.ts')) continue;
    const tools = new Set(file.direct);
    const text = readFileSync(path, 'utf8');
    for (const [name, target] of file.imports) {
      const [module, exported] = target.split('#') as [string, string];
      const helper = analysed.get(module);
      if (!helper || !new RegExp(`\\b${name}\\b`).test(text.replace(/^import .*$/gm, ''))) continue;
      for (const tool of helper.byDeclaration.get(exported) ?? []) tools.add(tool);
    }
    if (tools.size > 0) result.set(relative(ROOT, path), tools);
  }
  return result;
}

describe('tools npm ci cannot bring', () => {
  const tools = toolsOfTestFiles();

  it('finds them where the suite starts them, directly or through a helper', () => {
    // The files known to start each, so the search cannot pass by finding nothing.
    const seen = (file: string) => [...(tools.get(file) ?? [])].sort();
    expect(seen('test/e2e/completion.test.ts')).toEqual(['fish', 'tmux', 'zsh']); // tmux through type-in-shell.ts's tabThenEnter
    expect(seen('test/e2e/session.test.ts')).toEqual(['postgres', 'redis-server']); // databases.ts's startPostgres/startRedis
    expect(seen('test/e2e/backend-auth.test.ts')).toEqual(['postgres', 'redis-server']); // databases.ts's useBackends
    expect(seen('test/e2e/html-reports.test.ts')).toEqual(['chromium']); // const CHROMIUM = '/usr/bin/chromium'
    expect(seen('test/e2e/tty.test.ts')).toEqual(['script']);
    expect(seen('test/e2e/start-failures.test.ts')).toContain('python3'); // python.ts's plainPython
    expect(seen('test/output/format-conform-junit.test.ts')).toEqual(['xmllint']);
  });

  it('every test file that runs one skips with a reason when it is missing', () => {
    const unguarded = [...tools.keys()].filter((file) => !GUARDED.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(unguarded).toEqual([]);
  });
});
