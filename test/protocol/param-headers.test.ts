import { describe, expect, it } from 'vitest';
import { paramHeaderProblem } from '../../src/protocol/param-headers.js';

const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

// The invalid definitions of the conformance suite's http-invalid-tool-headers scenario (SEP-2243), one per rule.
describe('x-mcp-header annotations (SEP-2243)', () => {
  it('accepts valid annotations, nested properties and schemas without any', () => {
    expect(
      paramHeaderProblem(schema({ region: { type: 'string', 'x-mcp-header': 'Region' }, priority: { type: 'integer', 'x-mcp-header': 'Priority' }, on: { type: 'boolean', 'x-mcp-header': 'On' } })),
    ).toBeUndefined();
    expect(paramHeaderProblem(schema({ outer: { type: 'object', properties: { inner: { type: 'string', 'x-mcp-header': 'Inner' } } } }))).toBeUndefined();
    expect(paramHeaderProblem(schema({ query: { type: 'string' } }))).toBeUndefined();
    expect(paramHeaderProblem({ type: 'object' })).toBeUndefined();
  });

  it.each([
    ['empty', { value: { type: 'string', 'x-mcp-header': '' } }, "property 'value': x-mcp-header is empty (it must name the header)"],
    ['not a string', { value: { type: 'string', 'x-mcp-header': 7 } }, "property 'value': x-mcp-header is empty (it must name the header)"],
    ['on an object', { data: { type: 'object', 'x-mcp-header': 'Data' } }, "property 'data': x-mcp-header is only allowed on a string, integer or boolean property (this one is object)"],
    [
      'on an array',
      { items: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } },
      "property 'items': x-mcp-header is only allowed on a string, integer or boolean property (this one is array)",
    ],
    ['on null', { nil: { type: 'null', 'x-mcp-header': 'Nil' } }, "property 'nil': x-mcp-header is only allowed on a string, integer or boolean property (this one is null)"],
    ['on a number', { ratio: { type: 'number', 'x-mcp-header': 'Ratio' } }, "property 'ratio': x-mcp-header is only allowed on a string, integer or boolean property (this one is number)"],
    ['untyped', { any: { 'x-mcp-header': 'Any' } }, 'property \'any\': x-mcp-header is only allowed on a string, integer or boolean property (this one is "untyped")'],
    [
      'repeated',
      { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'Region' } },
      'property \'b\': x-mcp-header "Region" repeats "Region" (header names must be unique, ignoring case)',
    ],
    [
      'repeated in another case',
      { a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } },
      'property \'b\': x-mcp-header "myfield" repeats "MyField" (header names must be unique, ignoring case)',
    ],
    [
      'with a space',
      { v: { type: 'string', 'x-mcp-header': 'My Region' } },
      'property \'v\': x-mcp-header "My Region" is not a valid HTTP header name (no spaces, colons, control or non-ASCII characters)',
    ],
    [
      'with a colon',
      { v: { type: 'string', 'x-mcp-header': 'Region:Primary' } },
      'property \'v\': x-mcp-header "Region:Primary" is not a valid HTTP header name (no spaces, colons, control or non-ASCII characters)',
    ],
    ['not ASCII', { v: { type: 'string', 'x-mcp-header': 'Région' } }, 'property \'v\': x-mcp-header "Région" is not a valid HTTP header name (no spaces, colons, control or non-ASCII characters)'],
    [
      'with a control character',
      { v: { type: 'string', 'x-mcp-header': 'Region\t1' } },
      'property \'v\': x-mcp-header "Region\\t1" is not a valid HTTP header name (no spaces, colons, control or non-ASCII characters)',
    ],
  ])('rejects an annotation %s', (_case, properties, problem) => {
    expect(paramHeaderProblem(schema(properties))).toBe(problem);
  });

  it('rejects an annotation not reached through "properties" alone', () => {
    const unreachable = 'x-mcp-header is only allowed on a property reached through "properties" alone (not under items, $defs, anyOf/oneOf/allOf/not, if/then/else…)';
    expect(paramHeaderProblem(schema({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }))).toBe(`property 'list.items': ${unreachable}`);
    expect(paramHeaderProblem(schema({}, { anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] }))).toBe(`property 'anyOf.a': ${unreachable}`);
    expect(paramHeaderProblem(schema({}, { $defs: { d: { type: 'string', 'x-mcp-header': 'D' } } }))).toBe(`property '$defs': ${unreachable}`);
    expect(paramHeaderProblem({ type: 'object', 'x-mcp-header': 'Root' })).toBe(`the schema root: ${unreachable}`);
  });
});
