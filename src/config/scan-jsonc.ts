/** One token of JSONC text; whitespace and comments are skipped, never built up. */
export type JsoncToken = { kind: '{' | '}' | '[' | ']' | ':' | ',' | 'eof'; offset: number; value?: undefined } | { kind: 'string' | 'number' | 'word'; offset: number; value: string };

/** Reports a broken token (unterminated string, bad escape…) at its first character; does not return. */
export type ScanFailure = (offset: number, message: string) => never;

const PUNCTUATION = new Set(['{', '}', '[', ']', ':', ',']);
// JSON's number grammar; `1.`, `1e` and `1e+` are unterminated numbers (`1e+2` is not: the sign must not
// be skipped by backtracking), `-` alone is not a number at all.
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const UNTERMINATED_NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.(?![0-9])|(?:\.[0-9]+)?[eE](?:[+-](?![0-9])|(?![+\-0-9])))/y;
// A bare word runs until a delimiter: true, false, null, or a mistake named as a whole.
const WORD = /[^\s{}[\]":,/\u00a0\u1680\u2000-\u200b\u202f\u205f\u3000\ufeff]+/y;
// A string's plain run: anything but the quote, the backslash and control characters.
const PLAIN = /[^"\\\u0000-\u001f]*/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Whitespace as JSON and jsonc-parser see it (VS Code's editors write some of the Unicode spaces). */
function isWhitespace(code: number): boolean {
  return (
    code === 32 ||
    code === 9 ||
    code === 10 ||
    code === 13 ||
    code === 11 ||
    code === 12 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200b) ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Cuts JSONC text into tokens, one per call of `next()`, in one pass: each character is looked at a
 * bounded number of times, and skipped text (whitespace, comments) costs no memory.
 */
export function scanJsonc(text: string, fail: ScanFailure): { next(): JsoncToken } {
  let position = 0;
  const skipTrivia = () => {
    while (position < text.length) {
      const code = text.charCodeAt(position);
      if (isWhitespace(code)) position++;
      else if (code === 47 && text.charCodeAt(position + 1) === 47) {
        const end = text.indexOf('\n', position + 2);
        position = end === -1 ? text.length : end;
      } else if (code === 47 && text.charCodeAt(position + 1) === 42) {
        const end = text.indexOf('*/', position + 2);
        if (end === -1) fail(position, 'unterminated comment');
        position = end + 2;
      } else return;
    }
  };
  const readString = (start: number): string => {
    // Most strings have no escape: one slice of the text. Otherwise the pieces, joined once.
    const pieces: string[] = [];
    let index = start + 1;
    for (;;) {
      PLAIN.lastIndex = index;
      PLAIN.exec(text);
      if (PLAIN.lastIndex > index) pieces.push(text.slice(index, PLAIN.lastIndex));
      index = PLAIN.lastIndex;
      if (index >= text.length) fail(start, 'unterminated string');
      const code = text.charCodeAt(index);
      if (code === 34) break;
      if (code === 10 || code === 13) fail(start, 'unterminated string');
      if (code < 32) fail(start, 'invalid character in string');
      // A backslash.
      const escaped = text[index + 1];
      if (escaped === 'u') {
        HEX4.lastIndex = index + 2;
        if (!HEX4.test(text)) fail(start, 'invalid unicode escape');
        pieces.push(String.fromCharCode(parseInt(text.slice(index + 2, index + 6), 16)));
        index += 6;
      } else if (escaped !== undefined && escaped in ESCAPES) {
        pieces.push(ESCAPES[escaped]!);
        index += 2;
      } else if (escaped === undefined || escaped === '\n' || escaped === '\r') fail(start, 'unterminated string');
      else fail(start, 'invalid escape character');
    }
    position = index + 1;
    return pieces.length === 1 ? pieces[0]! : pieces.join('');
  };
  const next = (): JsoncToken => {
    skipTrivia();
    const offset = position;
    if (position >= text.length) return { kind: 'eof', offset };
    const character = text[position]!;
    if (PUNCTUATION.has(character)) {
      position++;
      return { kind: character as '{', offset };
    }
    if (character === '"') return { kind: 'string', offset, value: readString(offset) };
    if (character === '-' || (character >= '0' && character <= '9')) {
      UNTERMINATED_NUMBER.lastIndex = offset;
      if (UNTERMINATED_NUMBER.test(text)) fail(offset, 'unterminated number');
      NUMBER.lastIndex = offset;
      if (!NUMBER.test(text)) fail(offset, 'unexpected character');
      position = NUMBER.lastIndex;
      return { kind: 'number', offset, value: text.slice(offset, position) };
    }
    WORD.lastIndex = offset;
    // A lone `/` (not a comment) is a word of its own: an unexpected character.
    position = WORD.test(text) ? WORD.lastIndex : offset + 1;
    return { kind: 'word', offset, value: text.slice(offset, position) };
  };
  return { next };
}
