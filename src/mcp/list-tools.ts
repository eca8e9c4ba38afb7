import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describeSchemaIssues } from './describe-invalid-result.js';
import { linkSignal } from './link-signal.js';
import { listAllPages } from './list-pages.js';
import type { McpClient } from './mcp-client.js';
import { PARAM_HEADERS_SPEC, paramHeaderProblem } from '../protocol/param-headers.js';

/** A tool the server listed whose definition no client can use (no inputSchema, `type: null`…). */
export interface BrokenTool {
  /** Its name, or `#<index>` when even the name is missing. */
  name: string;
  problem: string;
  /** The spec section the problem breaks, when it is not the tools text (`x-mcp-header`, 2026-07-28). */
  spec?: string;
}

export interface ListToolsOptions {
  signal?: AbortSignal;
  timeout?: number;
  /**
   * A 2026-07-28 connection over Streamable HTTP: a tool whose `x-mcp-header` annotations break the
   * rules is left out (SEP-2243: the client MUST; over stdio it MAY ignore them, and toolrun does).
   */
  checkParamHeaders?: boolean;
}

/**
 * Every page of tools/list, each tool checked on its own: one broken definition is reported and left
 * out while the server's good tools stay usable (SPEC §8). The SDK's listTools would reject the whole
 * list over one tool, making the server look unreachable.
 */
export async function listToolsLeniently(client: McpClient, options: ListToolsOptions): Promise<{ tools: Tool[]; broken: BrokenTool[] }> {
  const { ToolSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const tools: Tool[] = [];
  const broken: BrokenTool[] = [];
  let index = 0;
  await listAllPages('tools/list', async (cursor) => {
    const linked = options.signal ? linkSignal(options.signal) : undefined;
    const page = (await client.request('tools/list', cursor === undefined ? undefined : { cursor }, { timeout: options.timeout, signal: linked?.signal }).finally(() => linked?.dispose())) as {
      tools?: unknown;
      nextCursor?: unknown;
    };
    if (!Array.isArray(page.tools)) throw new Error(`tools/list answered without a "tools" array (found ${page.tools === undefined ? 'nothing' : typeof page.tools})`);
    if (page.nextCursor !== undefined && typeof page.nextCursor !== 'string') throw new Error(`tools/list answered with a nextCursor that is not a string (${typeof page.nextCursor})`);
    for (const candidate of page.tools) {
      const parsed = ToolSchema.safeParse(candidate);
      const name = typeof (candidate as { name?: unknown })?.name === 'string' ? (candidate as { name: string }).name : `#${index}`;
      index++;
      // The server's own inputSchema once it validated: zod's copy drops a property named "__proto__".
      const headerProblem = parsed.success && options.checkParamHeaders ? paramHeaderProblem((candidate as Tool).inputSchema) : undefined;
      if (headerProblem) broken.push({ name, problem: headerProblem, spec: PARAM_HEADERS_SPEC });
      else if (parsed.success) tools.push({ ...parsed.data, inputSchema: (candidate as Tool).inputSchema } as Tool);
      else broken.push({ name, problem: describeSchemaIssues(parsed.error) ?? 'not a valid tool definition' });
    }
    return { items: [], nextCursor: page.nextCursor };
  });
  cacheForCallValidation(client, tools, broken);
  return { tools, broken };
}

/**
 * The SDK validates a call's structuredContent against the tool's outputSchema from the list it
 * cached in listTools; a list fetched here is given to it the same way. An outputSchema that does
 * not compile makes that tool broken, not the whole list.
 */
function cacheForCallValidation(client: McpClient, tools: Tool[], broken: BrokenTool[]): void {
  const cache = (list: Tool[]) => client.useToolDefinitions(list);
  try {
    cache(tools);
    return;
  } catch {
    // Find the tools whose outputSchema does not compile, one by one.
  }
  for (let i = tools.length - 1; i >= 0; i--) {
    try {
      cache([tools[i]!]);
    } catch (error) {
      broken.push({ name: tools[i]!.name, problem: `outputSchema does not compile: ${(error as Error).message.split('\n')[0]}` });
      tools.splice(i, 1);
    }
  }
  cache(tools);
}
