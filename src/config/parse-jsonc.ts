import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

export interface JsoncSyntaxProblem {
  line: number;
  column: number;
  message: string;
}

/**
 * Parses JSON with comments and trailing commas (VS Code's mcp.json is JSONC).
 * Returns the value or the first syntax problem with its 1-based line and column.
 */
export function parseJsonc(text: string): { value: unknown } | { problem: JsoncSyntaxProblem } {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  if (errors.length === 0) return { value };
  const first = errors[0]!;
  const { line, column } = lineAndColumn(text, first.offset);
  return { problem: { line, column, message: describeParseError(printParseErrorCode(first.error)) } };
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
