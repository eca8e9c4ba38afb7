import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-toolrun.js';

// `npm test` must pass on a machine with only Node: a test that runs a tool `npm ci` cannot bring
// skips, saying why, when it is missing. A file that runs one must guard it: `hasSystemTool`,
// `skipIf`, or a `[skip]` line of its own (helpers such as databases.ts and python.ts do).
const SYSTEM_TOOLS = ['xmllint', 'chromium', 'zsh', 'fish', 'tmux', 'redis-server', 'postgres', 'python3'];
const RUNS = new RegExp(`(?:execa|spawn|spawnSync|execFile|execFileSync)\\(\\s*['"](?:${SYSTEM_TOOLS.join('|')})['"]`);
const GUARDED = /hasSystemTool\(|skipIf\(|\[skip\]/;

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    // A helper's callers carry the guard (completion.test.ts checks tmux before typeInShell).
    if (entry.isDirectory()) return entry.name === 'fixtures' || entry.name === 'helpers' ? [] : testFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('tools npm ci cannot bring', () => {
  it('every test file that runs one skips with a reason when it is missing', () => {
    const unguarded = testFiles(join(ROOT, 'test'))
      .filter((path) => {
        const text = readFileSync(path, 'utf8');
        return RUNS.test(text) && !GUARDED.test(text);
      })
      .map((path) => relative(ROOT, path));
    expect(unguarded).toEqual([]);
  });
});
