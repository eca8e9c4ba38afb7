import { printParseErrorCode, visit, type ParseError } from 'jsonc-parser';

export interface JsoncSyntaxProblem {
  line: number;
  column: number;
  message: string;
  /** false for a readable file toolrun refuses (a forbidden key, too deep), true for broken JSON. */
  syntax: boolean;
}

/** Deeper than any real config (a tool schema nests a few levels); deeper is a mistake or an attack. */
export const MAX_CONFIG_DEPTH = 100;

// Keys that would reach an object's prototype if applied: never config (SPEC §8). `constructor` and
// `prototype` are fine as JSON Schema property names (under "properties"), where they stay plain keys.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Parses JSON with comments and trailing commas (VS Code's mcp.json is JSONC).
 * Returns the value or the first problem with its 1-based line and column. Objects have a null
 * prototype, so a key such as `toString` is an ordinary key; `__proto__`, `constructor` and
 * `prototype` are refused, and so is nesting deeper than MAX_CONFIG_DEPTH.
 */
export function parseJsonc(text: string): { value: unknown } | { problem: JsoncSyntaxProblem } {
  const errors: ParseError[] = [];
  let problem: JsoncSyntaxProblem | undefined;
  const fail = (offset: number, message: string) => {
    problem ??= { ...lineAndColumn(text, offset), message, syntax: false };
  };
  // The container being filled, the key it was stored under in its parent, and the property being read.
  const parents: Array<{ container: Record<string, unknown> | unknown[]; key: string | undefined }> = [];
  let current: { container: Record<string, unknown> | unknown[]; key: string | undefined } = { container: [], key: undefined };
  let property: string | undefined;
  const root = current.container as unknown[];
  const addValue = (value: unknown) => {
    if (Array.isArray(current.container)) current.container.push(value);
    else if (property !== undefined) current.container[property] = value;
  };
  const begin = (container: Record<string, unknown> | unknown[], offset: number) => {
    if (problem) return;
    addValue(container);
    parents.push(current);
    current = { container, key: Array.isArray(current.container) ? undefined : property };
    property = undefined;
    if (parents.length > MAX_CONFIG_DEPTH) fail(offset, `nested deeper than ${MAX_CONFIG_DEPTH} levels; a config is never that deep`);
  };
  const end = () => {
    if (problem) return;
    current = parents.pop()!;
  };
  try {
    visit(
      text,
      {
        onObjectBegin: (offset) => begin(Object.create(null) as Record<string, unknown>, offset),
        onObjectEnd: end,
        onArrayBegin: (offset) => begin([], offset),
        onArrayEnd: end,
        onObjectProperty: (name, offset) => {
          if (problem) return;
          property = name;
          if (FORBIDDEN_KEYS.has(name) && !(name !== '__proto__' && current.key === 'properties')) {
            fail(offset, `the key "${name}" is not allowed (it would change how objects behave, not configure toolrun); rename or remove it`);
          }
        },
        onLiteralValue: (value) => {
          if (!problem) addValue(value);
        },
        onError: (error, offset) => errors.push({ error, offset, length: 0 }),
      },
      { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false },
    );
  } catch (error) {
    // jsonc-parser descends recursively: nesting deep enough overflows the stack before our depth check could stop it.
    if (!(error instanceof RangeError)) throw error;
    fail(0, `nested too deeply to read; a config is never deeper than ${MAX_CONFIG_DEPTH} levels`);
  }
  if (errors.length > 0) {
    const first = errors[0]!;
    return { problem: { ...lineAndColumn(text, first.offset), message: describeParseError(printParseErrorCode(first.error)), syntax: true } };
  }
  if (problem) return { problem };
  return { value: root[0] };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const READABLE_ERRORS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'property name expected (keys need double quotes)',
  ValueExpected: 'value expected',
  ColonExpected: "':' expected",
  CommaExpected: "',' expected",
  CloseBraceExpected: "'}' expected",
  CloseBracketExpected: "']' expected",
  EndOfFileExpected: 'end of file expected (more than one top-level value)',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in string',
};

function describeParseError(code: string): string {
  return READABLE_ERRORS[code] ?? code;
}
