import { describe, expect, it } from 'vitest';
import { generateArguments, planCalls } from '../../src/conform/generate-arguments.js';

describe('generateArguments', () => {
  it('fills required properties only, from default, examples, enum and const, else a typed placeholder', () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        units: { type: 'string', enum: ['metric', 'imperial'] },
        days: { type: 'integer', minimum: 3 },
        verbose: { type: 'boolean' },
        mode: { const: 'fast' },
        limit: { type: 'number', default: 10 },
        tag: { type: 'string', examples: ['news'] },
        when: { type: 'string', format: 'date-time' },
        where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] },
        ids: { type: 'array', items: { type: 'string' }, minItems: 1 },
        optional: { type: 'string' },
      },
      required: ['city', 'units', 'days', 'verbose', 'mode', 'limit', 'tag', 'when', 'where', 'ids'],
    };
    expect(generateArguments(schema)).toEqual({
      arguments: { city: 'toolrun', units: 'metric', days: 3, verbose: true, mode: 'fast', limit: 10, tag: 'news', when: '2025-01-01T00:00:00Z', where: { lat: 1 }, ids: ['toolrun'] },
    });
  });

  it('follows local $refs and picks the first anyOf branch', () => {
    const schema = {
      type: 'object',
      $defs: { id: { type: 'integer', maximum: 0 } },
      properties: { id: { $ref: '#/$defs/id' }, v: { anyOf: [{ type: 'boolean' }, { type: 'string' }] } },
      required: ['id', 'v'],
    };
    expect(generateArguments(schema)).toEqual({ arguments: { id: 0, v: true } });
  });

  it('says why when no valid arguments can be made', () => {
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^[0-9]{4}$' } }, required: ['code'] };
    expect(generateArguments(schema)).toEqual({ reason: 'no valid arguments could be generated (/code must match pattern "^[0-9]{4}$")' });
    expect(generateArguments(undefined)).toEqual({ reason: 'the tool has no inputSchema object' });
  });
});

describe('planCalls', () => {
  const tools = [
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    { name: 'pin', inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^[0-9]+$' } }, required: ['code'] } },
  ];

  it('keeps the given calls only without --call-all', () => {
    expect(planCalls(tools, [{ tool: 'echo', arguments: { text: 'a' } }], false)).toEqual([{ tool: 'echo', arguments: { text: 'a' }, generated: false }]);
  });

  it('adds every other tool with generated arguments, skipped with a reason when none are valid', () => {
    expect(planCalls(tools, [], true)).toEqual([
      { tool: 'echo', arguments: { text: 'toolrun' }, generated: true },
      { tool: 'pin', arguments: {}, generated: true, skipped: 'no valid arguments could be generated (/code must match pattern "^[0-9]+$")' },
    ]);
  });
});
