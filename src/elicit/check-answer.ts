import { compileArgsValidator } from '../schema/compile-schema.js';
import { formatValidationErrors, relevantErrors } from '../schema/format-validation-errors.js';

/**
 * An answer checked against the schema the server asked with, before it is sent: the problems on
 * one line (`'age' must be integer; missing 'name'`), or undefined when it fits. A schema that does
 * not compile is the server's to fix: toolrun sends the answer unchecked then.
 */
export function checkAnswer(requestedSchema: unknown, content: Record<string, unknown>): string | undefined {
  if (typeof requestedSchema !== 'object' || requestedSchema === null) return undefined;
  let validate;
  try {
    validate = compileArgsValidator(requestedSchema as Record<string, unknown>);
  } catch {
    return undefined;
  }
  const outcome = validate(content);
  if (outcome.valid) return undefined;
  const errors = relevantErrors(outcome.errors);
  return errors.length === 0 ? undefined : formatValidationErrors(errors).replace(/^Invalid parameters: /, '');
}
