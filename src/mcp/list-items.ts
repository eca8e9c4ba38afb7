import type { Prompt, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { listAllPages } from './list-pages.js';
import type { McpClient, McpRequestOptions } from './mcp-client.js';

/** The paginated lists beyond tools, each with the result field that holds its items. */
const LISTS = {
  resources: { method: 'resources/list', field: 'resources' },
  resourceTemplates: { method: 'resources/templates/list', field: 'resourceTemplates' },
  prompts: { method: 'prompts/list', field: 'prompts' },
} as const;

export type ListKind = keyof typeof LISTS;

interface ListItems {
  resources: Resource;
  resourceTemplates: ResourceTemplate;
  prompts: Prompt;
}

/**
 * Every page of resources/list, resources/templates/list or prompts/list, in either era. A -32601
 * (Method not found) answer is an empty list, unless `strict`: doctor judges an advertised
 * capability that is not served (probe-capabilities.ts).
 */
export async function listItems<K extends ListKind>(client: McpClient, kind: K, options?: McpRequestOptions, strict = false): Promise<Array<ListItems[K]>> {
  const { method, field } = LISTS[kind];
  return listAllPages(
    method,
    async (cursor) => {
      const page = await client.request(method, cursor === undefined ? undefined : { cursor }, options);
      const items = page[field];
      if (!Array.isArray(items)) throw new Error(`${method} answered without a "${field}" array (found ${items === undefined ? 'nothing' : typeof items})`);
      const nextCursor = page.nextCursor;
      if (nextCursor !== undefined && typeof nextCursor !== 'string') throw new Error(`${method} answered with a nextCursor that is not a string (${typeof nextCursor})`);
      return { items: items as Array<ListItems[K]>, nextCursor };
    },
    { methodNotFoundIsEmpty: !strict },
  );
}
