import { describe, expect, it } from 'vitest';
import { runCleanInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, writeTempConfig } from '../helpers/temp-config.js';

// SPEC §10: `list --format openai` never silently drops a tool; names become valid API names that
// exec and the library API map back; the API's limits are warned, naming the limit.
describe('list --format openai', () => {
  const config = () =>
    writeTempConfig({
      mcpServers: {
        a: fixtureServer('many-tools-server.js', { env: { TOOL_COUNT: '70', LONG_DESCRIPTIONS: '2', SERVER_LABEL: 'a' } }),
        b: fixtureServer('many-tools-server.js', { env: { TOOL_COUNT: '70', SERVER_LABEL: 'b' } }),
      },
    });

  it('offers every tool under a valid API name and warns about the 128-tool and description limits', async () => {
    const result = await runCleanInProcess(['--config', config(), 'list', '--server', 'a', 'b', '--format', 'openai']);
    expect(result.exitCode).toBe(0);
    const names: string[] = JSON.parse(result.stdout).map((tool: { function: { name: string } }) => tool.function.name);
    expect(names).toHaveLength(140);
    expect(new Set(names).size).toBe(140);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(names).toEqual(expect.arrayContaining(['a__tool_0', 'b__tool_0', 'a__tool_69', 'b__tool_69']));
    expect(result.stderr.split('\n')).toEqual([
      "⚠ 70 tools from MCP server 'b' replace the ones of the same names from MCP server 'a' (tool_0, tool_1, tool_2, … 67 more; those stay reachable as a:NAME)",
      'offered under API names (exec and the library API take them): b:tool_0 → b__tool_0, b:tool_1 → b__tool_1, b:tool_2 → b__tool_2, b:tool_3 → b__tool_3, b:tool_4 → b__tool_4, … 135 more',
      '⚠ 140 tools: the OpenAI API takes at most 128 tools in one request (choose with --server or --local)',
      '⚠ 2 descriptions longer than 1024 characters, the OpenAI limit: a__tool_0 (1665), a__tool_1 (1665)',
    ]);
  });

  it('runs a tool by its API name, on the server the name came from', async () => {
    const path = config();
    const fromB = await runCleanInProcess(['--config', path, 'exec', 'b__tool_5', 'value=x']);
    expect(fromB.exitCode).toBe(0);
    expect(fromB.stdout).toBe('b:tool_5');
    const fromA = await runCleanInProcess(['--config', path, 'exec', 'a__tool_5', 'value=x']);
    expect(fromA.stdout).toBe('a:tool_5');
  });

  it('stays quiet within the limits', async () => {
    const result = await runCleanInProcess(['--config', config(), 'list', '--server', 'b', '--format', 'openai']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(70);
    expect(result.stderr).toBe('');
  });
});
