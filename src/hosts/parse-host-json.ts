import { parseJsonc } from '../config/parse-jsonc.js';

/**
 * A host's JSON or JSONC file, parsed with toolrun's own bounded parser (comments, trailing commas,
 * line:column errors, `__proto__` refused). A problem reads `line 3, column 5: …`.
 */
export function parseHostJson(text: string): { value: unknown } | { problem: string } {
  if (text.trim() === '') return { value: {} };
  const parsed = parseJsonc(text);
  if ('problem' in parsed) return { problem: `${parsed.problem.line}:${parsed.problem.column}: ${parsed.problem.syntax ? 'invalid JSON: ' : ''}${parsed.problem.message}` };
  return { value: parsed.value };
}
