import { describe, expect, it } from 'vitest';
import { connectServers } from '../../src/assembly/connect-servers.js';
import { loadConfig } from '../../src/config/load-config.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { fixtureServer, writeTempConfig } from '../helpers/temp-config.js';

describe('registering a server’s tools', () => {
  it('without the LangChain adapter (a session holder’s registry): the same tools, schemas and runs, no LangChain tool', async () => {
    const config = await loadConfig({ configPath: writeTempConfig({ mcpServers: { s: fixtureServer('pid-file-server.js') } }) });
    const logger = { warn: () => {}, info: () => {} };
    const registered = async (adaptTools: boolean) => {
      const registry = new ToolRegistry();
      try {
        const { failures } = await connectServers(registry, config, ['s'], { logger, adaptTools });
        expect(failures).toEqual([]);
        const tools = registry.list().filter((tool) => tool.server === 's');
        // The server's own answer (its pid), through the registry's runner.
        const whoami = (await registry.getExecutor('s:whoami')!({}, {})) as { value: string; raw: unknown };
        return {
          tools: tools.map(({ definition, source, qualifiedName }) => ({ definition, source, qualifiedName })),
          langChain: tools.map((tool) => tool.langChainTool !== undefined),
          whoami: { value: /^\d+$/.test(whoami.value), raw: whoami.raw === undefined ? 'none' : Object.keys(whoami.raw as object) },
        };
      } finally {
        await registry.close();
      }
    };
    const adapted = await registered(true);
    const plain = await registered(false);
    expect(adapted.tools.length).toBeGreaterThan(1);
    expect(plain.tools).toEqual(adapted.tools);
    expect(adapted.langChain.every(Boolean)).toBe(true);
    expect(plain.langChain.some(Boolean)).toBe(false);
    expect(adapted.whoami).toEqual({ value: true, raw: ['content'] });
    expect(plain.whoami).toEqual(adapted.whoami);
  });
});
