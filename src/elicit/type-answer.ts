import type { ElicitField } from './requested-fields.js';

const TRUE_WORDS = new Set(['true', 'yes', 'y', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0']);

/**
 * A typed answer to one field from the text a person or `--answer field=value` gave: a number for
 * a number field, true/false (or yes/no) for a boolean, a list (comma-separated or a JSON array)
 * for a multi-select. Text that does not fit stays a string, so the check against the schema names
 * the field and the type it wants, as ARGS do (`'age' must be integer`).
 */
export function typeAnswer(field: ElicitField | undefined, text: string): unknown {
  switch (field?.kind) {
    case 'number':
    case 'integer': {
      const number = text.trim() === '' ? NaN : Number(text);
      return Number.isFinite(number) ? number : text;
    }
    case 'boolean': {
      const word = text.trim().toLowerCase();
      return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : text;
    }
    case 'choices': {
      if (text.trim().startsWith('[')) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          // Not JSON after all: read as a comma-separated list below.
        }
      }
      return text.trim() === '' ? [] : text.split(',').map((item) => item.trim());
    }
    default:
      return text;
  }
}
