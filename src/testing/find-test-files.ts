import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { filesUnder } from '../files/files-under.js';

const TEST_FILE = /\.toolrun\.(ya?ml|json)$/;
/** Folders a search never enters: dependencies, VCS and tool folders, snapshots. */
const PASSED_OVER = new Set(['node_modules', '__snapshots__']);

/**
 * The test files PATHs name: a file as given (whatever its name), a folder searched for
 * `*.toolrun.yaml|yml|json` (not into node_modules or dot-folders). Sorted, each once: the order of
 * a run, and of its shards, is the same on every machine.
 */
export function findTestFiles(paths: string[], cwd: string): string[] {
  const found = new Set<string>();
  for (const given of paths.length > 0 ? paths : ['.']) {
    const path = resolve(cwd, given);
    let stats;
    try {
      stats = statSync(path);
    } catch {
      throw new UsageError(`no such file or folder: ${given}`);
    }
    if (stats.isDirectory()) for (const file of filesUnder(path, TEST_FILE, PASSED_OVER)) found.add(file);
    else found.add(path);
  }
  if (found.size === 0) {
    throw new UsageError(
      `no test files (*.toolrun.yaml, *.toolrun.yml, *.toolrun.json) in ${paths.length > 0 ? paths.join(', ') : 'the current folder'}; write one (toolrun test --help shows the format) or make one from a recording: toolrun test --from REC -o suite.toolrun.yaml`,
    );
  }
  return [...found].sort();
}
