import { describe, expect, it } from 'vitest';
import { checkSchema, compileArgsValidator } from '../../src/schema/compile-schema.js';
import { takeSchemaWarnings } from '../../src/schema/schema-warnings.js';

// A tool list fetched again brings new schema objects with the same text (each in-process run, a
// holder or `serve` reconnecting): compiled once, and Ajv's warnings given again each time.
describe('compileArgsValidator', () => {
  const schemaText = JSON.stringify({ type: 'object', properties: { when: { type: 'string', format: 'not-a-known-format-xyz' }, n: { type: 'integer' } }, required: ['n'] });

  it('compiles a schema once per text: equal schemas in new objects share one validator', () => {
    const first = compileArgsValidator(JSON.parse(schemaText));
    const again = compileArgsValidator(JSON.parse(schemaText));
    expect(again).toBe(first);
    expect(again({ n: 1 })).toEqual({ valid: true });
    expect(again({ n: 'x' })).toMatchObject({ valid: false, errors: [{ instancePath: '/n', keyword: 'type' }] });
    expect(compileArgsValidator({ ...JSON.parse(schemaText), required: [] })).not.toBe(first);
  });

  it("gives Ajv's warnings again to the run that reuses a compiled schema", () => {
    takeSchemaWarnings();
    const text = schemaText.replace('not-a-known-format-xyz', 'another-unknown-format-xyz');
    compileArgsValidator(JSON.parse(text));
    const firstTime = takeSchemaWarnings();
    expect(firstTime).toEqual([expect.stringContaining('unknown format "another-unknown-format-xyz" ignored')]);
    compileArgsValidator(JSON.parse(text));
    expect(takeSchemaWarnings()).toEqual(firstTime);
  });

  it('a schema object checkSchema compiled first still gives its warnings, to this run and to the next', () => {
    takeSchemaWarnings();
    const text = schemaText.replace('not-a-known-format-xyz', 'third-unknown-format-xyz');
    const registered = JSON.parse(text) as Record<string, unknown>;
    expect(checkSchema(registered)).toBeUndefined();
    takeSchemaWarnings();
    compileArgsValidator(registered);
    expect(takeSchemaWarnings()).toEqual([expect.stringContaining('unknown format "third-unknown-format-xyz" ignored')]);
    compileArgsValidator(JSON.parse(text));
    expect(takeSchemaWarnings()).toEqual([expect.stringContaining('unknown format "third-unknown-format-xyz" ignored')]);
  });

  it("values JSON would change (a library caller's Date, Infinity) never share a validator with the JSON they look like", () => {
    const when = new Date('2026-01-01T00:00:00.000Z');
    const byDate = compileArgsValidator({ type: 'object', properties: { at: { const: when } } });
    const byText = compileArgsValidator({ type: 'object', properties: { at: { const: when.toISOString() } } });
    expect(byDate).not.toBe(byText);
    expect(byText({ at: when.toISOString() })).toEqual({ valid: true });
    expect(byDate({ at: when.toISOString() })).toMatchObject({ valid: false });
    const unbounded = compileArgsValidator({ type: 'number', maximum: Number.POSITIVE_INFINITY });
    expect(unbounded).not.toBe(compileArgsValidator({ type: 'number', maximum: Number.POSITIVE_INFINITY }));
    expect(unbounded(1e300)).toEqual({ valid: true });
  });
});
