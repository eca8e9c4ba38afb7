import type { Json } from './server-entry.js';
import type { EntryPlace } from './entry-command.js';

/** One server's entry found in a host file's text. */
export interface LocatedEntry {
  /** The entry's text is `text.slice(start, end)`: what `--unwrap` compares and puts back. */
  start: number;
  end: number;
  /** Where the entry sits in `document` (keys, or an index in Continue's list). */
  path: Array<string | number>;
  /** The whole file, parsed as its host parses it. */
  document: unknown;
  /** The entry, parsed. */
  value: Json;
}

/** What `mcp tap --wrap` needs of a file format: find an entry, and rewrite only its command line. */
export interface EntryEditor {
  /** The entry, or undefined when the file has none of that name; throws WrapRefusal when the file cannot be read or the name is ambiguous. */
  locate(text: string, place: EntryPlace): LocatedEntry | undefined;
  /** The text with the entry's command line replaced by `words` and nothing else changed; throws WrapRefusal when that cannot be done safely. */
  setCommandLine(text: string, place: EntryPlace, words: string[]): string;
}

/** A text edit: `length` characters at `offset` become `content`. */
export interface TextEdit {
  offset: number;
  length: number;
  content: string;
}

/** Edits that do not overlap, applied from the last to the first, so earlier offsets stay valid. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  let result = text;
  for (const edit of [...edits].sort((a, b) => b.offset - a.offset)) result = result.slice(0, edit.offset) + edit.content + result.slice(edit.offset + edit.length);
  return result;
}

/** The indentation before `offset` when only spaces or tabs precede it on its line, else undefined. */
export function indentBefore(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/** The end of the line holding `offset` (before its `\r\n` or `\n`), or the end of the text. */
export function lineEndAfter(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  if (newline === -1) return text.length;
  return text[newline - 1] === '\r' ? newline - 1 : newline;
}
