import { describe, expect, it } from 'vitest';
import type { ServerConnection } from '../../src/mcp/server-connection.js';
import { ListFailedError, takeSnapshot } from '../../src/snapshot/take-snapshot.js';

/** A connection whose client answers from `pages`: method → cursor ('' for the first page) → result. */
const connection = (capabilities: Record<string, unknown>, pages: Record<string, Record<string, Record<string, unknown> | Error>>) => {
  const asked: string[] = [];
  const request = async (method: string, params?: { cursor?: string }) => {
    asked.push(`${method}${params?.cursor ? ` ${params.cursor}` : ''}`);
    const page = pages[method]?.[params?.cursor ?? ''];
    if (!page) throw Object.assign(new Error('Method not found'), { code: -32601 });
    if (page instanceof Error) throw page;
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
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: -32603 });
    const { connection: server } = connection({ tools: {}, prompts: {} }, { 'tools/list': { '': { tools: [] } }, 'prompts/list': { '': down } });
    const error = await takeSnapshot(server, {}).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ListFailedError);
    expect(error).toMatchObject({ method: 'prompts/list', message: 'prompts/list failed: connect ECONNREFUSED 127.0.0.1:5432', cause: { code: -32603 } });
  });

  it('a list answered -32601 (Method not found) on its first page is empty; on a later page it fails', async () => {
    const { connection: server } = connection({ tools: {}, resources: {} }, { 'tools/list': { '': { tools: [] } }, 'resources/list': { '': { resources: [{ uri: 'a://1', name: 'one' }] } } });
    expect(await takeSnapshot(server, {})).toMatchObject({ resources: [{ uri: 'a://1', name: 'one' }], resourceTemplates: [] });
    const { connection: paged } = connection({ tools: {} }, { 'tools/list': { '': { tools: [], nextCursor: 'p2' } } });
    expect(await takeSnapshot(paged, {}).catch((thrown: unknown) => thrown)).toMatchObject({ method: 'tools/list', cause: { code: -32601 } });
  });
});
