import { describe, expect, it } from 'vitest';
import { isApiName, toApiNames } from '../../src/registry/api-names.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

describe('toApiNames', () => {
  const names = (callNames: string[]) => [...toApiNames(callNames.map((name) => [name, name] as [string, string])).values()];

  it('keeps valid names and turns server:tool into server__tool', () => {
    expect(names(['echo', 'get-sum', 'everything:echo'])).toEqual(['echo', 'get-sum', 'everything__echo']);
  });

  it('replaces characters the APIs refuse and keeps names unique', () => {
    const [dotted, plain, qualified] = names(['get.time', 'get_time', 's:get.time']);
    expect(dotted).toMatch(/^get_time_[0-9a-f]{8}$/);
    expect(plain).toBe('get_time');
    expect(qualified).toBe('s__get_time');
  });

  it('shortens names over 64 characters with a hash, stable across runs', () => {
    const long = `server:${'x'.repeat(80)}`;
    const [first] = names([long]);
    expect(first).toHaveLength(64);
    expect(isApiName(first!)).toBe(true);
    expect(names([long])).toEqual([first]);
  });
});

describe('ToolRegistry API names (library API)', () => {
  it('offers a shadowed MCP tool as server__tool and finds it by that name', () => {
    const registry = new ToolRegistry();
    const parameters = { type: 'object', properties: {} };
    registry.registerTool({ name: 'echo', description: 'local', parameters }, async () => 'local', { source: 'builtin' });
    registry.registerTool({ name: 'echo', description: 'remote', parameters }, async () => 'remote', { source: 'mcp', server: 'everything' });
    const definitions = registry.getDefinitions('openai') as Array<{ function: { name: string } }>;
    expect(definitions.map((definition) => definition.function.name)).toEqual(['echo', 'everything__echo']);
    expect(registry.find('everything__echo')?.definition.description).toBe('remote');
    expect(registry.getExecutor('everything__echo')).toBeDefined();
    registry.registerTool({ name: 'other', description: 'later', parameters }, async () => 'later', { source: 'mcp', server: 'everything' });
    expect(registry.find('everything__echo')?.server).toBe('everything');
  });
});
