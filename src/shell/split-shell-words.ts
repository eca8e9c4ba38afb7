import { UsageError } from '../errors.js';
import { splitCommandWords } from '../input/split-words.js';

/**
 * A shell line as words, quoted as a POSIX shell quotes (the one splitter of src/input): no
 * expansion of any kind, the shell runs no commands. An empty line is no words; an unclosed quote
 * is a usage error saying how to fix it.
 */
export function splitShellWords(line: string): string[] {
  if (line.trim() === '') return [];
  const words = splitCommandWords(line);
  if (typeof words === 'string') throw new UsageError(`${words.replace(/^its /, 'a ')}; close it, or escape it with a backslash`);
  return words;
}
