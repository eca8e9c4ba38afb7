import { createScanner, type Node, type SyntaxKind } from 'jsonc-parser';
import { formatJson, leadingWhitespace, lineIndent, lineStart, type JsonLayout } from './jsonc-layout.js';

/**
 * Small edits of a JSONC text that change nothing but the member added or the value replaced:
 * comments, blank lines, key order and the rest of the layout stay byte for byte. jsonc-parser's own
 * `modify` reformats the whole enclosing object and moves a comment that follows the last member to
 * after the new one, which is not an edit a person would make.
 */

// SyntaxKind is a const enum, which this build cannot read at run time; the types keep the numbers right.
const COMMA: SyntaxKind.CommaToken = 5;
const END: SyntaxKind.EOF = 17;

/** One edit: the text from `offset` to `offset + length` becomes `content`. */
interface Edit {
  offset: number;
  length: number;
  content: string;
}

/** `key: value` added as the last member of `object` (an object node of `text`'s parse tree). */
export function appendMember(text: string, object: Node, key: string, value: unknown, layout: JsonLayout): string {
  const open = object.offset;
  const close = object.offset + object.length - 1;
  const members = object.children ?? [];
  const last = members.at(-1);
  const spansLines = text.slice(open, close).includes('\n');
  const closeIndent = leadingWhitespace(text, close);
  const memberIndent = indentOfMembers(text, object, layout);
  const formatted = `${JSON.stringify(key)}: ${formatJson(value, layout, memberIndent)}`;
  const edits: Edit[] = [];
  if (!last) {
    // An empty object: on a line of its own `}`, the member goes just above it; `{}` opens up.
    if (spansLines && closeIndent !== undefined) edits.push(insert(lineStart(text, close), `${memberIndent}${formatted}${layout.eol}`));
    else edits.push(insert(open + 1, `${layout.eol}${memberIndent}${formatted}${layout.eol}${lineIndent(text, open)}`));
    return applyEdits(text, edits);
  }
  const lastEnd = last.offset + last.length;
  const comma = trailingComma(text, lastEnd);
  if (!spansLines) {
    // A one-line object (a minified file): the member is added in the same compact style.
    const compact = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    edits.push(comma === undefined ? insert(lastEnd, `, ${compact}`) : insert(comma + 1, ` ${compact},`));
  } else if (closeIndent !== undefined) {
    // The usual layout: a new line just above the closing `}`, after any comment that ends the object.
    if (comma === undefined) edits.push(insert(lastEnd, ','));
    edits.push(insert(lineStart(text, close), `${memberIndent}${formatted}${comma === undefined ? '' : ','}${layout.eol}`));
  } else if (comma === undefined) {
    edits.push(insert(lastEnd, `,${layout.eol}${memberIndent}${formatted}`));
  } else {
    edits.push(insert(comma + 1, `${layout.eol}${memberIndent}${formatted},`));
  }
  return applyEdits(text, edits);
}

/** A member's value replaced in place, laid out as the member's own line is indented. */
export function replaceValue(text: string, property: Node, value: unknown, layout: JsonLayout): string {
  const node = property.children![1]!;
  const spansLines = text.slice(node.offset, node.offset + node.length).includes('\n');
  const content = spansLines || node.type !== 'object' ? formatJson(value, layout, lineIndent(text, property.offset)) : JSON.stringify(value);
  return applyEdits(text, [{ offset: node.offset, length: node.length, content }]);
}

/** The last member of `object` named `key` (the one a parser keeps when a key is repeated). */
export function findMember(object: Node | undefined, key: string): Node | undefined {
  if (object?.type !== 'object') return undefined;
  return object.children?.findLast((member) => member.children?.[0]?.value === key);
}

/** Whether the text holds no value at all: empty, whitespace, or only comments. */
export function holdsNoValue(text: string): boolean {
  const scanner = createScanner(text, true);
  return scanner.scan() === END;
}

/** Members' indentation: as an existing member is indented, else one level inside the object's own line. */
function indentOfMembers(text: string, object: Node, layout: JsonLayout): string {
  for (const member of object.children ?? []) {
    const whitespace = leadingWhitespace(text, member.offset);
    if (whitespace !== undefined) return whitespace;
  }
  const closeIndent = leadingWhitespace(text, object.offset + object.length - 1);
  return (closeIndent ?? lineIndent(text, object.offset)) + layout.indent;
}

/** The offset of a `,` after the last member (comments and whitespace between), if the file has one there. */
function trailingComma(text: string, from: number): number | undefined {
  const scanner = createScanner(text.slice(from), true);
  return scanner.scan() === COMMA ? from + scanner.getTokenOffset() : undefined;
}

function insert(offset: number, content: string): Edit {
  return { offset, length: 0, content };
}

/** Edits applied from the last to the first, so each offset still points into the original text. */
function applyEdits(text: string, edits: Edit[]): string {
  let result = text;
  for (const edit of [...edits].sort((a, b) => b.offset - a.offset)) result = result.slice(0, edit.offset) + edit.content + result.slice(edit.offset + edit.length);
  return result;
}
