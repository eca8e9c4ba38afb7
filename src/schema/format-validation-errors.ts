import type { ErrorObject } from 'ajv';

/**
 * Turns Ajv errors into the messages of SPEC §4:
 * `Invalid parameters: missing 'expression'`, `'level' must be integer`, `'action' must be one of: on, off, dim`.
 * Pass the errors that count (see relevantErrors).
 */
export function formatValidationErrors(errors: ErrorObject[]): string {
  const messages: string[] = [];
  for (const error of errors) {
    const message = describeError(error);
    if (!messages.includes(message)) messages.push(message);
  }
  return `Invalid parameters: ${messages.join('; ')}`;
}

/**
 * Extra properties are allowed (seed 004: "the system ignores extra parameters"), so a root-level
 * additionalProperties failure is not a validation failure. Returns the errors that count.
 */
export function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const counted = errors.filter((error) => !(error.keyword === 'additionalProperties' && error.instancePath === ''));
  // anyOf/oneOf report every branch's failure and then themselves; the summary line is enough.
  const combinators = counted.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
  if (combinators.length === 0) return counted;
  return counted.filter((error) => combinators.includes(error) || !combinators.some((c) => error.schemaPath.startsWith(`${c.schemaPath.slice(0, c.schemaPath.lastIndexOf('/'))}/`)));
}

function describeError(error: ErrorObject): string {
  const path = pointerToName(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      return `missing '${path ? `${path}.${missing}` : missing}'`;
    }
    case 'type':
      if (!path) return `arguments must be ${article(String(params.type))}`;
      return `'${path}' must be ${String(params.type).replace(/,/g, ' or ')}`;
    case 'enum':
      return `'${path || 'arguments'}' must be one of: ${(params.allowedValues as unknown[]).map(formatEnumValue).join(', ')}`;
    case 'const':
      return `'${path || 'arguments'}' must be ${JSON.stringify(params.allowedValue)}`;
    case 'additionalProperties':
      return `'${path}' has unknown property '${String(params.additionalProperty)}'`;
    default:
      return `'${path || 'arguments'}' ${error.message ?? 'is invalid'}`;
  }
}

function pointerToName(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

function formatEnumValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
