import type { ListedPages } from './check-types.js';
import type { ProbeChannel } from './probe-types.js';

export type ListMethod = 'tools/list' | 'resources/list' | 'resources/templates/list' | 'prompts/list';

/** The result field each list method carries its items in. */
export const LIST_ITEMS_KEY: Record<ListMethod, string> = {
  'tools/list': 'tools',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'prompts/list': 'prompts',
};

/** A server that keeps sending cursors is stopped here: no real list needs 100 pages to be judged. */
export const MAX_LIST_PAGES = 100;

/**
 * Lists `method` through every page, following `nextCursor`, and keeps every page as sent, so the
 * pagination check can judge the cursors. Never throws: an error answer, a timeout, a closed
 * connection, a cursor sent twice or the page bound ends the listing with `stopped` saying why.
 */
export async function listAllPages(channel: ProbeChannel, method: ListMethod, options: { timeoutMs?: number; maxPages?: number } = {}): Promise<ListedPages> {
  const maxPages = options.maxPages ?? MAX_LIST_PAGES;
  const key = LIST_ITEMS_KEY[method];
  const listed: ListedPages = { method, items: [], pages: [] };
  const cursorsSeen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; page <= maxPages; page += 1) {
    const answer = await channel.request(method, cursor === undefined ? undefined : { cursor }, { timeoutMs: options.timeoutMs });
    if (answer.kind === 'timeout') {
      listed.pages.push({ cursor });
      listed.stopped = { reason: `page ${page} got no answer within ${answer.afterMs} ms` };
      return listed;
    }
    if (answer.kind === 'closed') {
      listed.pages.push({ cursor });
      listed.stopped = { reason: `the connection closed before page ${page} was answered: ${answer.reason}` };
      return listed;
    }
    if (answer.kind === 'error') {
      listed.pages.push({ cursor, frame: answer.frame });
      listed.stopped = { reason: `page ${page} was answered with error ${answer.error.code}: ${answer.error.message}`, frame: answer.frame };
      return listed;
    }
    const items = answer.result[key];
    const nextCursor = typeof answer.result.nextCursor === 'string' && answer.result.nextCursor !== '' ? answer.result.nextCursor : undefined;
    listed.pages.push({ cursor, frame: answer.frame, nextCursor });
    if (!Array.isArray(items)) {
      listed.stopped = { reason: `page ${page} has no "${key}" array`, frame: answer.frame };
      return listed;
    }
    listed.items.push(...items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item)));
    if (nextCursor === undefined) return listed;
    if (cursorsSeen.has(nextCursor) || nextCursor === cursor) {
      listed.stopped = { reason: `page ${page} sent the cursor ${JSON.stringify(nextCursor)} again`, frame: answer.frame };
      return listed;
    }
    cursorsSeen.add(nextCursor);
    cursor = nextCursor;
  }
  listed.stopped = { reason: `the listing still had a nextCursor after ${maxPages} pages (the bound)` };
  return listed;
}

/** `ConformContext.listAll`: each method listed once per run, every check sharing the pages. */
export function memoizedListAll(channel: ProbeChannel, timeoutMs?: number): (method: ListMethod) => Promise<ListedPages> {
  const listings = new Map<ListMethod, Promise<ListedPages>>();
  return (method) => {
    let listing = listings.get(method);
    if (!listing) {
      listing = listAllPages(channel, method, { timeoutMs });
      listings.set(method, listing);
    }
    return listing;
  };
}

/** The runner's spelling (run-conform memoizes per method): every page of `method`, bounded. */
export function listAll(channel: ProbeChannel, method: string, options: { timeoutMs?: number } = {}): Promise<ListedPages> {
  return listAllPages(channel, method as ListMethod, options);
}
