import { commandLineOf, isTapCommandLine, withCommandLine, WrapRefusal, type EntryPlace } from './entry-command.js';
import type { EntryEditor, LocatedEntry } from './entry-editor.js';
import { jsonEntryEditor } from './edit-json-entry.js';
import { tomlEntryEditor } from './edit-toml-entry.js';
import { yamlEntryEditor } from './edit-yaml-entry.js';

/**
 * `mcp tap --wrap` and `--unwrap` on a host file's text (SPEC §13): pure, text in, text out. Every
 * edit is checked before it is used: the file read back has the same text before and after the
 * entry, and means the same thing except for the entry's command line (or, unwrapping, the entry as
 * it was). An edit that fails the check is refused, so a layout the editors misjudge costs a
 * refusal, never a broken or changed host config.
 */

const EDITORS: Record<EntryPlace['format'], EntryEditor> = { json: jsonEntryEditor, toml: tomlEntryEditor, yaml: yamlEntryEditor };

export interface WrappedText {
  text: string;
  /** The entry's text before and after: what --unwrap finds and puts back. */
  entryBefore: string;
  entryAfter: string;
  /** The command line the entry had (program first). */
  commandLine: string[];
}

/** The entry's command line (program first) in a file's text, or undefined when the file has no such entry. */
export function readCommandLine(text: string, place: EntryPlace): string[] | undefined {
  const entry = EDITORS[place.format].locate(text, place);
  return entry && commandLineOf(entry.value, place);
}

/** The text with the entry's command line run through the tap: `tapPrefix` (toolrun's command up to `--`), then the entry's own. */
export function wrapEntryText(text: string, place: EntryPlace, tapPrefix: readonly string[]): WrappedText {
  const editor = EDITORS[place.format];
  const entry = editor.locate(text, place);
  if (!entry) throw new WrapRefusal(`'${place.name}' is not in the file`);
  const commandLine = commandLineOf(entry.value, place);
  if (isTapCommandLine(commandLine)) throw new WrapRefusal(`'${place.name}' already runs through toolrun mcp tap`);
  const words = [...tapPrefix, '--', ...commandLine];
  const wrapped = editor.setCommandLine(text, place, words);
  const after = checkEdit(editor, place, text, entry, wrapped, withCommandLine(entry.value, place, words));
  if (!after) throw new WrapRefusal(`toolrun cannot change the command line of '${place.name}' without changing more of the file (a layout it does not edit safely): edit it by hand`);
  return { text: wrapped, entryBefore: text.slice(entry.start, entry.end), entryAfter: wrapped.slice(after.start, after.end), commandLine };
}

/** restored (`overEdits`: the entry had been edited since, and --force put it back anyway), or why not. */
export type UnwrappedText = { outcome: 'restored'; text: string; overEdits: boolean } | { outcome: 'gone' } | { outcome: 'changed' };

/**
 * The text with the entry put back as it was before the wrap: its current text (which must be
 * exactly what --wrap wrote, unless `force`) replaced by the text it had. `original` is the whole
 * file as it was then, for the check.
 */
export function unwrapEntryText(text: string, place: EntryPlace, saved: { entryBefore: string; entryAfter: string; original: string }, force: boolean): UnwrappedText {
  const editor = EDITORS[place.format];
  const entry = editor.locate(text, place);
  if (!entry) return { outcome: 'gone' };
  const before = editor.locate(saved.original, place);
  // A host that re-wrote the file (its own formatting, key order) changed no value: that is not an edit.
  const overEdits = text.slice(entry.start, entry.end) !== saved.entryAfter && !sameData(entry.value, wrappedValue(editor, place, saved, before));
  if (overEdits && !force) return { outcome: 'changed' };
  const restored = text.slice(0, entry.start) + saved.entryBefore + text.slice(entry.end);
  if (!before || !checkEdit(editor, place, text, entry, restored, before.value))
    throw new WrapRefusal(`putting the saved entry of '${place.name}' back would change more than that entry (the file's layout around it changed): restore it by hand`);
  return { outcome: 'restored', text: restored, overEdits };
}

/** The entry as --wrap left it, parsed: the original file with the wrapped entry's text in its place. */
function wrappedValue(editor: EntryEditor, place: EntryPlace, saved: { entryAfter: string; original: string }, before: LocatedEntry | undefined): unknown {
  if (!before) return undefined;
  try {
    return editor.locate(saved.original.slice(0, before.start) + saved.entryAfter + saved.original.slice(before.end), place)?.value;
  } catch (error) {
    if (error instanceof WrapRefusal) return undefined;
    throw error;
  }
}

/** The edited entry, when `edited` differs from `text` only inside the entry and the entry now reads as `expected`. */
function checkEdit(editor: EntryEditor, place: EntryPlace, text: string, entry: LocatedEntry, edited: string, expected: unknown): LocatedEntry | undefined {
  let after: LocatedEntry | undefined;
  try {
    after = editor.locate(edited, place);
  } catch (error) {
    if (error instanceof WrapRefusal) return undefined;
    throw error;
  }
  if (!after || !sameData(after.path, entry.path)) return undefined;
  if (edited.slice(0, after.start) !== text.slice(0, entry.start) || edited.slice(after.end) !== text.slice(entry.end)) return undefined;
  return sameData(after.document, replaceAt(entry.document, entry.path, expected)) ? after : undefined;
}

/** `document` with the value at `path` replaced (copies along the path; the rest shared). */
function replaceAt(document: unknown, path: ReadonlyArray<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const [key, ...rest] = path;
  const container = document as Record<string | number, unknown>;
  const copy = (Array.isArray(document) ? [...(document as unknown[])] : { ...container }) as Record<string | number, unknown>;
  copy[key!] = replaceAt(container[key!], rest, value);
  return copy;
}

/** Equal as data: same keys (in any order) and values; prototypes ignored (toolrun's JSON parser gives null-prototype objects); dates by their text. */
function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && JSON.stringify(a) === JSON.stringify(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
