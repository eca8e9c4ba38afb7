/** JSON.parse with the line and column of a syntax error, for a message that points at it. */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

export type ParsedJson = { ok: true; value: unknown } | { ok: false; line: number; column: number; message: string };

export function parseJsonWithPosition(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown };
  } catch (error) {
    // jsonc-parser (already a dependency) gives the offset JSON.parse's message words differently per Node version.
    const errors: ParseError[] = [];
    parse(text, errors, { allowTrailingComma: false, disallowComments: true });
    const first = errors[0];
    const offset = first?.offset ?? 0;
    const before = text.slice(0, offset).split('\n');
    return { ok: false, line: before.length, column: before[before.length - 1].length + 1, message: first ? words(printParseErrorCode(first.error)) : (error as Error).message };
  }
}

/** `PropertyNameExpected` → `property name expected`. */
function words(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
