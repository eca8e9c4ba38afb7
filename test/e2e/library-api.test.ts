import { describe, expect, it } from 'vitest';
// The package imports itself by name, as a user's project would import it.
import { createRegistry, loadConfig, ToolExecutor } from 'toolrun';
import { runToolUseLoop } from '../../examples/tool-use-loop.mjs';
import { fixtureServer, writeTempConfig } from '../helpers/temp-config.js';

describe('library API (SPEC §7)', () => {
  it('exposes loadConfig, createRegistry and ToolExecutor with provider definitions', async () => {
    const config = await loadConfig({ env: {} });
    const registry = await createRegistry(config);
    try {
      const executor = new ToolExecutor(registry);
      expect(registry.getDefinitions('anthropic').map((tool) => (tool as { name: string }).name)).toEqual(['get_current_datetime', 'math_eval', 'echo']);
      expect(await executor.execute('math_eval', { expression: '6*7' })).toMatchObject({ success: true, result: { result: 42 }, tool_name: 'math_eval' });
    } finally {
      await registry.close();
    }
  });

  it('runs the README tool-use loop against a fake model turn', async () => {
    const requests: Array<{ tools: Array<{ name: string }>; messages: unknown[] }> = [];
    const fakeClient = {
      messages: {
        create: async (request: { tools: Array<{ name: string }>; messages: unknown[] }) => {
          requests.push(structuredClone(request));
          if (requests.length === 1) {
            return { stop_reason: 'tool_use', content: [{ type: 'tool_use', id: 'toolu_1', name: 'math_eval', input: { expression: '2^10 / 4' } }] };
          }
          return { stop_reason: 'end_turn', content: [{ type: 'text', text: '2^10 / 4 is 256.' }] };
        },
      },
    };
    const answer = await runToolUseLoop(fakeClient, 'What is 2^10 / 4?');
    expect(answer).toBe('2^10 / 4 is 256.');
    expect(requests[0]!.tools.map((tool) => tool.name)).toContain('math_eval');
    expect(requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"result":256}', is_error: false }] });
  });
});

describe('library API: servers that ask back (issue #22 item 5)', () => {
  it('answers with the callbacks given to createRegistry: elicit, sample, roots', async () => {
    const configPath = writeTempConfig({ mcpServers: { ask: fixtureServer('carry-ask-server.js') } });
    const config = await loadConfig({ env: {}, configPath });
    const asked: string[] = [];
    const registry = await createRegistry(config, {
      askBack: {
        elicit: async (params, context) => {
          asked.push(`${context.server}: ${params.message}`);
          return { action: 'accept', content: { name: 'Ada' } };
        },
        sample: async () => ({ role: 'assistant', content: { type: 'text', text: 'hi from my model' }, model: 'mine' }),
        roots: () => [{ uri: 'file:///work', name: 'work' }],
      },
    });
    try {
      const executor = new ToolExecutor(registry);
      const text = async (tool: string) => ((await executor.execute(tool, {})) as { result: unknown }).result;
      expect(await text('ask:ask-name')).toBe('elicitation: {"action":"accept","content":{"name":"Ada"}}');
      expect(asked).toEqual(['ask: Who are you?']);
      expect(await text('ask:ask-model')).toBe('sampling: hi from my model');
      expect(await text('ask:ask-roots')).toBe('roots: {"roots":[{"uri":"file:///work","name":"work"}]}');
    } finally {
      await registry.close();
    }
  });
});
