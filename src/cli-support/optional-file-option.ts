import { statSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * An option with an optional FILE (`serve --lock [FILE]`, `exec --locked [FILE]`, `mcp tap --lock
 * [FILE]`) placed before the command's own words: commander takes the next word as FILE, so
 * `exec --locked notes:read_notes` would read a lock named after the tool. The value is FILE only
 * when it looks like one (it ends in .lock or .json, or names a file that exists); else it was the
 * first word of the command, given back as `word`, and FILE is the default.
 */
export function takeOptionalFile(value: string | true | undefined, cwd: string, defaultFile: string): { file?: string; word?: string } {
  if (value === undefined) return {};
  if (value === true) return { file: defaultFile };
  if (/\.(lock|json)$/i.test(value) || isFile(resolve(cwd, value))) return { file: value };
  return { file: defaultFile, word: value };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
