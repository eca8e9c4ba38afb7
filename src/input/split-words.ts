/**
 * A command line as words (`--sampling-command CMD`, a `--call` word, a shell line), split the way a POSIX shell splits a simple command — blanks
 * separate words, '…' keeps everything, "…" keeps all but \" \\ \$ \`, a backslash outside quotes
 * keeps the next character — but nothing else a shell does: no variables, globs, pipes or
 * redirections, since no shell runs it (a model CLI gets exactly the words written). Who needs a
 * shell writes one: `--sampling-command "sh -c 'llm -m gpt-4o | tee log'"`.
 * Returns the problem as a string for an unclosed quote or an empty command.
 */
export function splitCommandWords(text: string): string[] | string {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const character = text[i]!;
    if (quote === "'") {
      if (character === "'") quote = undefined;
      else word += character;
    } else if (quote === '"') {
      if (character === '"') quote = undefined;
      else if (character === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) word += text[++i];
      else word += character;
    } else if (/\s/.test(character)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (character === "'" || character === '"') {
      quote = character;
      word ??= '';
    } else if (character === '\\' && i + 1 < text.length) word = (word ?? '') + text[++i];
    else word = (word ?? '') + character;
  }
  if (quote) return `its ${quote === "'" ? 'single' : 'double'} quote is never closed`;
  if (word !== undefined) words.push(word);
  if (words.length === 0) return 'it is empty';
  return words;
}
