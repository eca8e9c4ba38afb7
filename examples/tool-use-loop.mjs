// A tool-use loop wired to toolrun's engine (SPEC §7). `client` is anything with the shape of the
// Anthropic SDK's `client.messages.create`; the test suite passes a fake one, so nothing here needs
// the network. With the real SDK: runToolUseLoop(new Anthropic(), 'What is 2^10 / 4?').
import { createRegistry, loadConfig, ToolExecutor } from 'toolrun';

export async function runToolUseLoop(client, userText, { model = 'claude-sonnet-4-5', maxTurns = 8 } = {}) {
  const config = await loadConfig();
  const registry = await createRegistry(config);
  const executor = new ToolExecutor(registry, { timeoutMs: config.timeoutMs });
  const messages = [{ role: 'user', content: userText }];
  try {
    for (let turn = 0; turn < maxTurns; turn++) {
      const response = await client.messages.create({ model, max_tokens: 1024, tools: registry.getDefinitions('anthropic'), messages });
      messages.push({ role: 'assistant', content: response.content });
      if (response.stop_reason !== 'tool_use')
        return response.content
          .filter((block) => block.type === 'text')
          .map((block) => block.text)
          .join('');
      const results = [];
      for (const block of response.content) {
        if (block.type !== 'tool_use') continue;
        const envelope = await executor.execute(block.name, block.input);
        results.push({
          type: 'tool_result',
          tool_use_id: block.id,
          content: JSON.stringify(envelope.success ? envelope.result : { error: envelope.error }),
          is_error: !envelope.success,
        });
      }
      messages.push({ role: 'user', content: results });
    }
    throw new Error(`no final answer after ${maxTurns} turns`);
  } finally {
    await registry.close();
  }
}
