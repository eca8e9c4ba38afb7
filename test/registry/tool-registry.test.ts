import { DynamicStructuredTool } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolNotFoundError, ToolrunError } from '../../src/errors.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { checkSchema } from '../../src/schema/compile-schema.js';

const definition = (name: string, description = `${name} tool`) => ({ name, description, parameters: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } });
const run = async () => 'ok';

function registryWithWarnings() {
  const warnings: string[] = [];
  const registry = new ToolRegistry({ logger: { warn: (message) => warnings.push(message) }, checkSchema });
  return { registry, warnings };
}

describe('ToolRegistry', () => {
  it('warns on a duplicate name and keeps the later registration', async () => {
    const { registry, warnings } = registryWithWarnings();
    registry.registerTool(definition('t', 'first'), run, { source: 'builtin' });
    registry.registerTool(definition('t', 'second'), async () => 'second', { source: 'mock' });
    expect(warnings).toEqual(["Tool 't' from mock tools replaces the one from builtin tools"]);
    expect(registry.get('t').definition.description).toBe('second');
    expect(registry.size).toBe(1);
  });

  it("keeps a local tool's plain name over an MCP tool, silently", () => {
    const { registry, warnings } = registryWithWarnings();
    registry.registerTool(definition('echo'), run, { source: 'builtin' });
    registry.registerTool(definition('echo'), run, { source: 'mcp', server: 'everything' });
    expect(warnings).toEqual([]);
    expect(registry.get('echo').source).toBe('builtin');
    expect(registry.get('echo', 'everything').server).toBe('everything');
    expect(registry.names()).toEqual(['echo', 'everything:echo']);
  });

  it('keeps shadowed MCP tools reachable by server:tool', () => {
    const { registry } = registryWithWarnings();
    registry.registerTool(definition('echo'), run, { source: 'mcp', server: 'a' });
    registry.registerTool(definition('echo'), run, { source: 'mcp', server: 'b' });
    expect(registry.get('echo').server).toBe('b');
    expect(registry.get('echo', 'a').server).toBe('a');
    expect(registry.get('a:echo').server).toBe('a');
    expect(registry.isAmbiguous('echo')).toBe(true);
    expect(registry.names()).toEqual(['echo', 'a:echo']);
    registry.registerTool(definition('only_here'), run, { source: 'mcp', server: 'a' });
    // The names list shows: qualified for an ambiguous name, plain for a name that is one tool's alone.
    expect([...registry.callNames().values()]).toEqual(['b:echo', 'only_here', 'a:echo']);
  });

  it('suggests close names for an unknown tool', () => {
    const { registry } = registryWithWarnings();
    for (const name of ['math_eval', 'get_current_datetime', 'echo']) registry.registerTool(definition(name), run);
    expect(() => registry.get('math_evl')).toThrow(new ToolNotFoundError('math_evl', ['math_eval']));
    expect(() => registry.get('math_evl')).toThrow("Tool 'math_evl' not found. Did you mean: math_eval?");
    expect(() => registry.get('zzz')).toThrow("Tool 'zzz' not found. Run `toolrun list` to see the available tools.");
  });

  it('quotes a suggested name a shell would run, and spells out its control characters (issue #31 item 3)', () => {
    const { registry } = registryWithWarnings();
    for (const name of ['list_issues;touch${IFS}x', 'list_issue\x1b[2J']) registry.registerTool(definition(name), run);
    expect(() => registry.get('list_issue')).toThrow(`Tool 'list_issue' not found. Did you mean: $'list_issue\\x1b[2J', 'list_issues;touch\${IFS}x'?`);
  });

  it('checks definitions when registering', () => {
    const { registry } = registryWithWarnings();
    expect(() => registry.registerTool({ name: '', description: 'd', parameters: {} }, run)).toThrow(ToolrunError);
    expect(() => registry.registerTool({ name: 'x', description: 'd', parameters: { type: 'object', properties: { a: { type: 'strin' } } } }, run)).toThrow(
      /^Tool 'x': parameters is not valid JSON Schema/,
    );
    expect(() => registry.registerTool({ name: 'x', description: 'd', parameters: [] as never }, run)).toThrow("Tool 'x': parameters must be a JSON Schema object");
  });

  it('gives definitions in plain, Anthropic and OpenAI shapes', () => {
    const { registry } = registryWithWarnings();
    registry.registerTool(definition('t'), run);
    const parameters = definition('t').parameters;
    expect(registry.getDefinitions()).toEqual([{ name: 't', description: 't tool', parameters }]);
    expect(registry.getDefinitions('anthropic')).toEqual([{ name: 't', description: 't tool', input_schema: parameters }]);
    expect(registry.getDefinitions('openai')).toEqual([{ type: 'function', function: { name: 't', description: 't tool', parameters } }]);
  });

  it('registers a LangChain structured tool built here (seed 001)', async () => {
    const { registry } = registryWithWarnings();
    const received: unknown[] = [];
    const tool = new DynamicStructuredTool({
      name: 'add_numbers',
      description: 'Adds two numbers',
      schema: z.object({ a: z.number(), b: z.number() }),
      func: async ({ a, b }) => {
        received.push({ a, b });
        return String(a + b);
      },
    });
    const registered = registry.registerLangChainTool(tool, { server: 'calc' });
    expect(registered.source).toBe('mcp');
    expect(registered.qualifiedName).toBe('calc:add_numbers');
    expect(registered.definition.parameters).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
    const result = await registered.run({ a: 2, b: 3 }, { signal: new AbortController().signal, timeoutMs: 1000 });
    expect(result).toBe('5');
    expect(received).toEqual([{ a: 2, b: 3 }]);
  });

  it('takes a JSON Schema from a LangChain tool as is', () => {
    const { registry } = registryWithWarnings();
    const jsonSchema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    const registered = registry.registerLangChainTool({ name: 'search', description: 'Search', schema: jsonSchema, invoke: async () => 'r' });
    expect(registered.definition.parameters).toBe(jsonSchema);
  });
});
