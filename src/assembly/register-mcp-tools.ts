import type { ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import { createMcpRunner } from '../mcp/mcp-tool-runner.js';
import type { ServerConnection } from '../mcp/server-connection.js';

let toolAdapter: Promise<typeof import('@langchain/mcp-adapters')> | undefined;

/** Starts loading @langchain/mcp-adapters (once); registerMcpTools awaits the same load. */
export function preloadToolAdapter(): Promise<typeof import('@langchain/mcp-adapters')> {
  toolAdapter ??= import('@langchain/mcp-adapters');
  toolAdapter.catch(() => {});
  return toolAdapter;
}

/**
 * Adapts a server's tools with @langchain/mcp-adapters and registers them through
 * registerLangChainTool (seeds 000, 001). The registry keeps the server's own input schema for
 * validation (LangChain's copy is simplified for models: $refs inlined, allOf merged), and calls
 * the server through the connection's client, so results, isError and cancellation are exact.
 *
 * `adapt: false` registers the same tools (same schema, same runner) without a LangChain tool beside
 * each: for a session holder, whose registry only resolves and runs calls and never hands a tool to
 * LangChain. Loading and running the adapter was ~0.1 s of CPU of every holder's start.
 */
export async function registerMcpTools(registry: ToolRegistry, connection: ServerConnection, { adapt = true }: { adapt?: boolean } = {}): Promise<void> {
  const adapted = adapt ? await adaptTools(connection) : new Map<string, never>();
  registry.registerAll(() => {
    for (const tool of connection.tools) {
      const options = {
        server: connection.name,
        source: 'mcp' as const,
        parameters: tool.inputSchema as Record<string, unknown>,
        run: createMcpRunner(connection, tool.name),
        checkSchema: false,
        enforcesTimeout: true,
      };
      const langChainTool = adapted.get(tool.name);
      // A tool LangChain could not adapt (an odd schema) stays callable from toolrun all the same.
      if (langChainTool) registry.registerLangChainTool(langChainTool, options);
      else registry.registerTool({ name: tool.name, description: tool.description ?? '', parameters: options.parameters }, options.run, options);
    }
  });
}

async function adaptTools(connection: ServerConnection) {
  const { loadMcpTools } = await preloadToolAdapter();
  // loadMcpTools asks tools/list itself; answer it from the list already fetched: one round trip, not two.
  const listed: ListToolsResult = { tools: connection.tools };
  const client = Object.create(connection.client.adapterClient, { listTools: { value: async () => listed } }) as typeof connection.client.adapterClient;
  return new Map((await loadMcpTools(connection.name, client, { throwOnLoadError: false })).map((tool) => [tool.name, tool]));
}
