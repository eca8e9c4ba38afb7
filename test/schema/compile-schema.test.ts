import { describe, expect, it } from 'vitest';
import { compileArgsValidator } from '../../src/schema/compile-schema.js';
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
});
