import { describe, expect, it } from 'vitest';
import type { ServerConnection } from '../../src/mcp/server-connection.js';
import { ListFailedError, takeSnapshot } from '../../src/snapshot/take-snapshot.js';

/** A connection whose client answers from `pages`: method → cursor ('' for the first page) → result. */
const connection = (capabilities: Record<string, unknown>, pages: Record<string, Record<string, Record<string, unknown>>>) => {
  const asked: string[] = [];
  const request = async (method: string, params?: { cursor?: string }) => {
    asked.push(`${method}${params?.cursor ? ` ${params.cursor}` : ''}`);
    const page = pages[method]?.[params?.cursor ?? ''];
    if (!page) throw Object.assign(new Error('Method not found'), { code: -32601 });
    return page;
  };
  return { asked, connection: { name: 'cfg', serverInfo: { name: 'srv', version: '9.9.9' }, protocolVersion: '2025-11-25', capabilities, client: { request } } as unknown as ServerConnection };
};

describe('takeSnapshot', () => {
  it('follows every page, gives an empty list for a capability not advertised, and leaves the version out', async () => {
    const { asked, connection: server } = connection(
      { tools: {} },
      { 'tools/list': { '': { tools: [{ name: 'b', inputSchema: {} }], nextCursor: 'p2' }, p2: { tools: [{ name: 'a', inputSchema: {} }], _meta: { at: 1 } } } },
    );
    expect(await takeSnapshot(server, {})).toEqual({
      toolrunSnapshot: 1,
      server: { name: 'srv' },
      protocolVersion: '2025-11-25',
      tools: [
        { name: 'a', inputSchema: {} },
        { name: 'b', inputSchema: {} },
      ],
      resources: [],
      resourceTemplates: [],
      prompts: [],
    });
    expect(asked).toEqual(['tools/list', 'tools/list p2']);
  });

  it('a listing the server advertises but fails is a ListFailedError naming the method', async () => {
    const { connection: server } = connection({ tools: {}, prompts: {} }, { 'tools/list': { '': { tools: [] } } });
    const error = await takeSnapshot(server, {}).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ListFailedError);
    expect(error).toMatchObject({ method: 'prompts/list', message: 'prompts/list failed: Method not found', cause: { code: -32601 } });
  });
});
