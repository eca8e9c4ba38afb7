import { describe, expect, it } from 'vitest';
import { diffApis } from '../../src/snapshot/diff-api.js';
import type { ApiItem, ApiSource } from '../../src/snapshot/snapshot-types.js';

const api = (label: string, lists: { tools?: ApiItem[]; resources?: ApiItem[]; resourceTemplates?: ApiItem[]; prompts?: ApiItem[] }): ApiSource => ({
  label,
  snapshot: { toolrunSnapshot: 1, server: { name: 's' }, tools: [], resources: [], resourceTemplates: [], prompts: [], ...lists },
});
const tool = (name: string, inputSchema: Record<string, unknown> = { type: 'object' }, extra: Record<string, unknown> = {}) => ({ name, inputSchema, ...extra });
/** The changes between two versions of one tool's input schema, as [path, breaking, reason]. */
const inputChanges = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  diffApis(api('a', { tools: [tool('t', before)] }), api('b', { tools: [tool('t', after)] })).changes.map((change) => [change.path, change.breaking, change.reason]);
const outputChanges = (before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined) =>
  diffApis(api('a', { tools: [tool('t', undefined, before ? { outputSchema: before } : {})] }), api('b', { tools: [tool('t', undefined, after ? { outputSchema: after } : {})] })).changes.map(
    (change) => [change.path, change.breaking, change.reason],
  );
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });

describe('diffApis: items', () => {
  it('a removed tool, prompt, resource or template is breaking; a new one is not', () => {
    const before = api('a', {
      tools: [tool('gone'), tool('kept')],
      prompts: [{ name: 'p' }],
      resources: [{ uri: 'file:///a.txt', name: 'a' }],
      resourceTemplates: [{ uriTemplate: 'x://{id}', name: 'x' }],
    });
    const after = api('b', { tools: [tool('kept'), tool('fresh')], prompts: [{ name: 'q' }] });
    const result = diffApis(before, after);
    expect(result.breaking).toBe(true);
    expect(result.changes.map((change) => [change.kind, change.what, change.path, change.breaking])).toEqual([
      ['removed', 'tool', 'tools.gone', true],
      ['removed', 'resource', 'resources["file:///a.txt"]', true],
      ['removed', 'resourceTemplate', 'resourceTemplates["x://{id}"]', true],
      ['removed', 'prompt', 'prompts.p', true],
      ['added', 'tool', 'tools.fresh', false],
      ['added', 'prompt', 'prompts.q', false],
    ]);
  });

  it('the same API has no changes; a description change is not breaking', () => {
    const before = api('a', { tools: [tool('t', object({ q: { type: 'string' } }), { description: 'old' })] });
    expect(diffApis(before, before)).toEqual({ changes: [], breaking: false, notCompared: [] });
    const after = api('b', { tools: [tool('t', object({ q: { type: 'string', description: 'the query' } }), { description: 'new' })] });
    expect(diffApis(before, after).changes.map((change) => [change.what, change.path, change.breaking])).toEqual([
      ['description', 'tools.t.inputSchema.properties.q.description', false],
      ['description', 'tools.t.description', false],
    ]);
    expect(diffApis(before, after).breaking).toBe(false);
  });

  it("a resource's mimeType change is breaking; its name is not", () => {
    const before = api('a', { resources: [{ uri: 'a://1', name: 'one', mimeType: 'application/json' }] });
    const after = api('b', { resources: [{ uri: 'a://1', name: 'uno', mimeType: 'text/plain' }] });
    expect(diffApis(before, after).changes.map((change) => [change.path, change.breaking])).toEqual([
      ['resources["a://1"].mimeType', true],
      ['resources["a://1"].name', false],
    ]);
  });

  it('a list one side does not have (a recording that never asked) is not compared', () => {
    const before = api('a', { prompts: [{ name: 'p' }] });
    const after: ApiSource = { label: 'x.rec', snapshot: { toolrunSnapshot: 1, server: { name: 's' }, tools: [] } };
    expect(diffApis(before, after)).toEqual({
      changes: [],
      breaking: false,
      notCompared: [
        { list: 'resources', missingFrom: 'x.rec' },
        { list: 'resourceTemplates', missingFrom: 'x.rec' },
        { list: 'prompts', missingFrom: 'x.rec' },
      ],
    });
  });
});

describe('diffApis: tool arguments (input schema)', () => {
  it('a new required argument is breaking, a new optional one is not', () => {
    expect(inputChanges(object({ a: { type: 'string' } }, ['a']), object({ a: { type: 'string' }, b: { type: 'string' }, c: { type: 'number' } }, ['a', 'b']))).toEqual([
      ['tools.t.inputSchema.properties.b', true, 'new required argument: clients that do not send it are rejected'],
      ['tools.t.inputSchema.properties.c', false, 'new optional argument'],
    ]);
  });

  it('an argument made required is breaking, made optional is not', () => {
    const schema = (required: string[]) => object({ a: { type: 'string' }, b: { type: 'string' } }, required);
    expect(inputChanges(schema(['a']), schema(['b']))).toEqual([
      ['tools.t.inputSchema.properties.b', true, 'argument made required: clients that leave it out are rejected'],
      ['tools.t.inputSchema.properties.a', false, 'argument made optional'],
    ]);
  });

  it('a removed argument is breaking', () => {
    expect(inputChanges(object({ a: { type: 'string' }, b: { type: 'string' } }), object({ a: { type: 'string' } }))).toEqual([
      ['tools.t.inputSchema.properties.b', true, 'argument removed: clients that send it are rejected (additionalProperties: false) or have it silently ignored'],
    ]);
  });

  it('a narrowed type is breaking (union to one, number to integer, one type to another); a widened one is not', () => {
    const one = (schema: Record<string, unknown>) => object({ a: schema });
    expect(inputChanges(one({ type: ['string', 'number'] }), one({ type: 'string' }))).toEqual([
      ['tools.t.inputSchema.properties.a', true, 'type narrowed from number|string to string: values of the dropped type are rejected'],
    ]);
    expect(inputChanges(one({ type: 'number' }), one({ type: 'integer' }))).toEqual([
      ['tools.t.inputSchema.properties.a', true, 'type narrowed from number to integer: values of the dropped type are rejected'],
    ]);
    expect(inputChanges(one({ type: 'string' }), one({ type: 'boolean' }))).toEqual([['tools.t.inputSchema.properties.a', true, 'type changed from string to boolean']]);
    expect(inputChanges(one({}), one({ type: 'string' }))).toEqual([['tools.t.inputSchema.properties.a', true, 'type narrowed from any to string: values of the dropped type are rejected']]);
    expect(inputChanges(one({ type: 'integer' }), one({ type: ['number', 'null'] }))).toEqual([['tools.t.inputSchema.properties.a', false, 'type widened from integer to null|number']]);
  });

  it('a narrowed enum (a value removed, or an enum added) is breaking; a widened one is not', () => {
    const one = (schema: Record<string, unknown>) => object({ mode: schema });
    expect(inputChanges(one({ type: 'string', enum: ['a', 'b'] }), one({ type: 'string', enum: ['a'] }))).toEqual([
      ['tools.t.inputSchema.properties.mode', true, 'enum narrowed: "b" no longer accepted'],
    ]);
    expect(inputChanges(one({ type: 'string', enum: ['a'] }), one({ type: 'string', enum: ['a', 'c'] }))).toEqual([['tools.t.inputSchema.properties.mode', false, 'enum widened: "c" accepted']]);
    expect(inputChanges(one({ type: 'string' }), one({ type: 'string', const: 'a' }))).toEqual([['tools.t.inputSchema.properties.mode', true, 'enum added: only its values are accepted now']]);
    expect(inputChanges(one({ type: 'string', enum: ['a'] }), one({ type: 'string' }))).toEqual([['tools.t.inputSchema.properties.mode', false, 'enum removed: any value is accepted']]);
  });

  it('goes into nested object properties and array items, with the JSON path', () => {
    const before = object({ filter: object({ kind: { type: 'string', enum: ['a', 'b'] } }), tags: { type: 'array', items: object({ id: { type: 'number' } }) } });
    const after = object({ filter: object({ kind: { type: 'string', enum: ['a'] }, depth: { type: 'integer' } }, ['depth']), tags: { type: 'array', items: object({ id: { type: 'integer' } }) } });
    expect(inputChanges(before, after)).toEqual([
      ['tools.t.inputSchema.properties.filter.properties.kind', true, 'enum narrowed: "b" no longer accepted'],
      ['tools.t.inputSchema.properties.filter.properties.depth', true, 'new required argument: clients that do not send it are rejected'],
      ['tools.t.inputSchema.properties.tags.items.properties.id', true, 'type narrowed from number to integer: values of the dropped type are rejected'],
    ]);
  });

  it('closing additionalProperties and tightening a bound are breaking; loosening is not', () => {
    expect(inputChanges({ type: 'object' }, { type: 'object', additionalProperties: false })).toEqual([
      ['tools.t.inputSchema.additionalProperties', true, 'additional properties no longer accepted: clients sending other names are rejected'],
    ]);
    expect(inputChanges(object({ n: { type: 'integer', maximum: 10 } }), object({ n: { type: 'integer', maximum: 5, minimum: 0 } }))).toEqual([
      ['tools.t.inputSchema.properties.n.minimum', true, 'minimum added: accepts fewer values'],
      ['tools.t.inputSchema.properties.n.maximum', true, 'maximum 10 → 5: accepts fewer values'],
    ]);
    expect(inputChanges(object({ s: { type: 'string', maxLength: 5 } }), object({ s: { type: 'string' } }))).toEqual([
      ['tools.t.inputSchema.properties.s.maxLength', false, 'maxLength removed: accepts more values'],
    ]);
  });
});

describe('diffApis: output schema', () => {
  it('a removed output field or outputSchema is breaking; a new field, required or not, is not', () => {
    expect(outputChanges(object({ a: { type: 'string' }, b: { type: 'string' } }), object({ a: { type: 'string' }, c: { type: 'string' } }, ['c']))).toEqual([
      ['tools.t.outputSchema.properties.b', true, 'output field removed: clients that read it get nothing'],
      ['tools.t.outputSchema.properties.c', false, 'new output field, always present'],
    ]);
    expect(outputChanges(object({ a: { type: 'string' } }), undefined)).toEqual([
      ['tools.t.outputSchema', true, 'output schema removed: clients reading structuredContent lose every field it promised'],
    ]);
    expect(outputChanges(undefined, object({ a: { type: 'string' } }))).toEqual([['tools.t.outputSchema', false, 'new output schema']]);
  });

  it('reads the other way round: a widened type or enum, or a field made optional, breaks readers', () => {
    expect(outputChanges(object({ a: { type: 'integer' } }, ['a']), object({ a: { type: ['integer', 'string'] } }))).toEqual([
      ['tools.t.outputSchema.properties.a', true, 'type widened from integer to integer|string: clients may get a type they do not expect'],
      ['tools.t.outputSchema.properties.a', true, 'output field made optional: clients that rely on it may not find it'],
    ]);
    expect(outputChanges(object({ s: { enum: ['a'] } }), object({ s: { enum: ['b'] } }))).toEqual([
      ['tools.t.outputSchema.properties.s', true, 'enum widened: clients may get "b", which they do not expect'],
      ['tools.t.outputSchema.properties.s', false, 'enum narrowed: "a" no longer sent'],
    ]);
  });
});

describe('diffApis: prompt arguments', () => {
  const prompt = (args: Array<Record<string, unknown>>) => api('x', { prompts: [{ name: 'p', arguments: args }] });
  const changes = (before: Array<Record<string, unknown>>, after: Array<Record<string, unknown>>) =>
    diffApis(prompt(before), prompt(after)).changes.map((change) => [change.what, change.path, change.breaking, change.reason]);

  it("a prompt's new required argument, an argument removed or made required are breaking; a new optional one is not", () => {
    expect(changes([{ name: 'city', required: true }, { name: 'unit' }], [{ name: 'city' }, { name: 'day', required: true }, { name: 'lang' }])).toEqual([
      ['promptArgument', 'prompts.p.arguments.unit', true, 'prompt argument removed: clients that send it are rejected or have it ignored'],
      ['promptArgument', 'prompts.p.arguments.day', true, 'new required prompt argument: clients that do not send it are rejected'],
      ['promptArgument', 'prompts.p.arguments.city', false, 'prompt argument made optional'],
      ['promptArgument', 'prompts.p.arguments.lang', false, 'new optional prompt argument'],
    ]);
    expect(changes([{ name: 'city' }], [{ name: 'city', required: true }])).toEqual([
      ['promptArgument', 'prompts.p.arguments.city', true, 'prompt argument made required: clients that leave it out are rejected'],
    ]);
  });
});
