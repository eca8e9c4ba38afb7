import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { filesUnder } from '../files/files-under.js';

const EVAL_FILE = /\.eval\.(ya?ml|json)$/;
/** Folders a search never enters: dependencies, cassettes (as src/testing/find-test-files.ts passes over snapshots). */
const PASSED_OVER = new Set(['node_modules', '__cassettes__']);

/** The eval files PATHs name: a file as given, a folder searched for `*.eval.yaml|yml|json`. Sorted, each once. */
export function findEvalFiles(paths: string[], cwd: string): string[] {
  const found = new Set<string>();
  for (const given of paths.length > 0 ? paths : ['.']) {
    const path = resolve(cwd, given);
    let isFolder: boolean;
    try {
      isFolder = statSync(path).isDirectory();
    } catch {
      throw new UsageError(`no such file or folder: ${given}`);
    }
    if (isFolder) for (const file of filesUnder(path, EVAL_FILE, PASSED_OVER)) found.add(file);
    else found.add(path);
  }
  if (found.size === 0)
    throw new UsageError(`no eval files (*.eval.yaml, *.eval.yml, *.eval.json) in ${paths.length > 0 ? paths.join(', ') : 'the current folder'}; write one (toolrun eval --help shows the format)`);
  return [...found].sort();
}
