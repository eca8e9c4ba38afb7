import { describe, expect, it } from 'vitest';
import { presentTools } from '../../src/eval/present-tools.js';
import type { RegisteredTool } from '../../src/registry/tool-types.js';

const tool = (name: string, parameters: Record<string, unknown> = { type: 'object', properties: {} }, server: string | null = 'files'): RegisteredTool => ({
  definition: { name, description: `${name} tool`, parameters },
  run: async () => 'ok',
  source: server ? 'mcp' : 'mock',
  ...(server ? { server } : {}),
  qualifiedName: server ? `${server}:${name}` : name,
  normalizesArgs: Boolean(server),
});

describe("tools presented as each host presents them (lint's targets)", () => {
  it('no host: the names and schemas as listed', () => {
    const presented = presentTools([tool('read.file', { type: 'object', properties: { path: { type: 'string', format: 'uri' } } })], undefined);
    expect(presented.map(({ name, inputSchema }) => [name, inputSchema])).toEqual([['read.file', { type: 'object', properties: { path: { type: 'string', format: 'uri' } } }]]);
  });

  it("vscode, gemini-cli and codex rename (each host's own function); the real tool stays behind the name", () => {
    const read = tool('read.file');
    expect(presentTools([read], 'vscode').map(({ name, tool: real }) => [name, real.definition.name])).toEqual([['mcp_files_read_file', 'read.file']]);
    expect(presentTools([read], 'gemini-cli')[0]!.name).toBe('mcp_files_read.file');
    expect(presentTools([read], 'codex')[0]!.name).toBe('mcp__files__read_file');
    // A local tool is named as a host names a server's, under the server the caller gives.
    expect(presentTools([tool('math', undefined, null)], 'vscode', 'toolrun')[0]!.name).toBe('mcp_toolrun_math');
  });

  it("codex keeps only the keywords Codex keeps; openai's schema is strict; anthropic's root an object", () => {
    const schema = { type: 'object', properties: { path: { type: 'string', format: 'uri', pattern: '^/' } }, required: [] };
    expect(presentTools([tool('read', schema)], 'codex')[0]!.inputSchema).toEqual({ type: 'object', properties: { path: { type: 'string' } }, required: [] });
    expect(presentTools([tool('read', schema)], 'openai')[0]!.inputSchema).toMatchObject({ additionalProperties: false, required: ['path'] });
    expect(presentTools([tool('read', { type: 'string' })], 'anthropic')[0]!.inputSchema).toEqual({ type: 'object', properties: {} });
  });

  it('cursor sends the first 40 tools and filters out a server + tool name over 60 characters', () => {
    const many = Array.from({ length: 45 }, (_, index) => tool(`tool_${index}`));
    const presented = presentTools([tool('x'.repeat(60)), ...many], 'cursor');
    expect(presented).toHaveLength(40);
    expect(presented[0]!.name).toBe('tool_0');
    expect(presented.at(-1)!.name).toBe('tool_39');
  });
});
