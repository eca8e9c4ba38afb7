import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { filesUnder } from '../files/files-under.js';

const EVAL_FILE = /\.eval\.(ya?ml|json)$/;
/** Folders a search never enters: dependencies, cassettes (as src/testing/find-test-files.ts passes over snapshots). */
const PASSED_OVER = new Set(['node_modules', '__cassettes__']);

/** The eval files PATHs name: a file as given, a folder searched for `*.eval.yaml|yml|json`. Sorted, each once. */
export function findEvalFiles(paths: string[], cwd: string): string[] {
  // Keyed by the real path: a file reached twice (a folder and a link to it) runs, and records, once.
  const found = new Map<string, string>();
  const add = (file: string) => {
    const real = realPathOf(file);
    if (!found.has(real)) found.set(real, file);
  };
  for (const given of paths.length > 0 ? paths : ['.']) {
    const path = resolve(cwd, given);
    let isFolder: boolean;
    try {
      isFolder = statSync(path).isDirectory();
    } catch {
      throw new UsageError(`no such file or folder: ${given}`);
    }
    if (isFolder) for (const file of filesUnder(path, EVAL_FILE, PASSED_OVER)) add(file);
    else add(path);
  }
  if (found.size === 0)
    throw new UsageError(`no eval files (*.eval.yaml, *.eval.yml, *.eval.json) in ${paths.length > 0 ? paths.join(', ') : 'the current folder'}; write one (toolrun eval --help shows the format)`);
  return [...found.values()].sort();
}

function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
