import { describe, expect, it } from 'vitest';
import { compileArgsValidator, checkSchema } from '../../src/schema/compile-schema.js';
import { formatValidationErrors, relevantErrors } from '../../src/schema/format-validation-errors.js';

const schema = {
  type: 'object',
  properties: {
    expression: { type: 'string' },
    level: { type: 'integer' },
    action: { type: 'string', enum: ['on', 'off', 'dim'] },
    opts: { type: 'object', properties: { depth: { type: 'number', minimum: 0 } } },
  },
  required: ['expression'],
  additionalProperties: false,
};

function messageFor(args: unknown, target: Record<string, unknown> = schema): string | undefined {
  const result = compileArgsValidator(target)(args);
  if (result.valid) return undefined;
  const errors = relevantErrors(result.errors);
  return errors.length ? formatValidationErrors(errors) : undefined;
}

describe('validation messages (SPEC §4)', () => {
  it('names a missing required property', () => {
    expect(messageFor({})).toBe("Invalid parameters: missing 'expression'");
  });

  it('says integer when a number is fractional (Number.isInteger)', () => {
    expect(messageFor({ expression: 'x', level: 2.5 })).toBe("Invalid parameters: 'level' must be integer");
    expect(messageFor({ expression: 'x', level: 2 })).toBeUndefined();
  });

  it('lists the allowed values of an enum', () => {
    expect(messageFor({ expression: 'x', action: 'up' })).toBe("Invalid parameters: 'action' must be one of: on, off, dim");
  });

  it('joins several problems and names nested paths', () => {
    expect(messageFor({ level: 'x', opts: { depth: -1 } })).toBe("Invalid parameters: missing 'expression'; 'level' must be integer; 'opts.depth' must be >= 0");
  });

  it('ignores extra properties even when the schema forbids them', () => {
    expect(messageFor({ expression: 'x', extra: true })).toBeUndefined();
  });

  it('rejects arguments that are not an object', () => {
    expect(messageFor([])).toBe('Invalid parameters: arguments must be an object');
  });

  it('handles draft 2020-12 schemas', () => {
    const modern = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(messageFor({}, modern)).toBe("Invalid parameters: missing 'a'");
  });

  it('reports a schema that is not valid JSON Schema', () => {
    expect(checkSchema({ type: 'object', properties: { a: { type: 'strin' } } })).toMatch(/type/);
    expect(checkSchema({ type: 'object', properties: { a: { type: 'string' } } })).toBeUndefined();
  });
});
