import { UsageError } from '../errors.js';

/**
 * Splits a shell line into words the way a POSIX shell quotes (enough for `key=value` arguments):
 * 'single quotes' keep everything, "double quotes" take \" \\ \$ \` escapes, a backslash outside
 * quotes escapes the next character. No expansion of any kind: the shell runs no commands.
 */
export function splitShellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let index = 0; index < line.length; index++) {
    const character = line[index]!;
    if (character === ' ' || character === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (character === "'") {
      const end = line.indexOf("'", index + 1);
      if (end === -1) throw new UsageError(`unclosed ' in the line; close it, or escape it as \\'`);
      word += line.slice(index + 1, end);
      index = end;
    } else if (character === '"') {
      let end = index + 1;
      for (; end < line.length && line[end] !== '"'; end++) {
        if (line[end] === '\\' && end + 1 < line.length && '"\\$`'.includes(line[end + 1]!)) end++;
        word += line[end];
      }
      if (end >= line.length) throw new UsageError('unclosed " in the line; close it, or escape it as \\"');
      index = end;
    } else if (character === '\\' && index + 1 < line.length) {
      word += line[++index];
    } else word += character;
  }
  if (inWord) words.push(word);
  return words;
}
