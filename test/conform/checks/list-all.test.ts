import { describe, expect, it } from 'vitest';
import { listAllPages, memoizedListAll } from '../../../src/conform/list-all.js';
import { FakeChannel } from '../fake-channel.js';
import { cleanServer } from '../clean-script.js';

describe('listAll', () => {
  it('follows nextCursor to the end and records every page', async () => {
    const channel = new FakeChannel(cleanServer());
    const listed = await listAllPages(channel, 'tools/list');
    expect(listed.items.map((tool) => tool.name)).toEqual(['echo', 'slow.job']);
    expect(listed.pages.map((page) => [page.cursor, page.nextCursor])).toEqual([
      [undefined, 'page-2'],
      ['page-2', undefined],
    ]);
    expect(listed.stopped).toBeUndefined();
  });

  it('stops on a repeated cursor, an error and at the page bound', async () => {
    const repeating = new FakeChannel(cleanServer({ 'tools/list': () => ({ result: { tools: [], nextCursor: 'again' } }) }));
    expect((await listAllPages(repeating, 'tools/list')).stopped?.reason).toMatch(/page 2 sent the cursor "again" again/);
    const failing = new FakeChannel(cleanServer({ 'prompts/list': () => ({ error: { code: -32603, message: 'boom' } }) }));
    const failed = await listAllPages(failing, 'prompts/list');
    expect(failed.stopped?.reason).toBe('page 1 was answered with error -32603: boom');
    expect(failed.stopped?.frame?.direction).toBe('received');
    let n = 0;
    const endless = new FakeChannel(cleanServer({ 'tools/list': () => ({ result: { tools: [], nextCursor: `c${n++}` } }) }));
    const bounded = await listAllPages(endless, 'tools/list', { maxPages: 5 });
    expect(bounded.pages).toHaveLength(5);
    expect(bounded.stopped?.reason).toMatch(/after 5 pages/);
  });

  it('lists each method once when memoized', async () => {
    const channel = new FakeChannel(cleanServer());
    const listAll = memoizedListAll(channel);
    await listAll('tools/list');
    await listAll('tools/list');
    expect(channel.frames.filter((frame) => frame.direction === 'sent')).toHaveLength(2);
  });
});
