import type { ListedPages } from './check-types.js';
import type { ProbeChannel } from './probe-types.js';
import { describeAnswer } from './handshake.js';

/** Placeholder until the content checks land: every page of a list method, bounded. */
export async function listAll(channel: ProbeChannel, method: string): Promise<ListedPages> {
  const key = method === 'resources/templates/list' ? 'resourceTemplates' : method.split('/')[0]!;
  const listed: ListedPages = { method, items: [], pages: [] };
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const answer = await channel.request(method, cursor === undefined ? {} : { cursor });
    if (answer.kind !== 'result') {
      listed.stopped = { reason: describeAnswer(answer), frame: answer.kind === 'error' ? answer.frame : undefined };
      return listed;
    }
    const items = answer.result[key];
    if (Array.isArray(items)) listed.items.push(...(items as Record<string, unknown>[]));
    const next = answer.result.nextCursor;
    listed.pages.push({ cursor, frame: answer.frame, nextCursor: typeof next === 'string' ? next : undefined });
    if (typeof next !== 'string') return listed;
    cursor = next;
  }
  listed.stopped = { reason: 'more than 100 pages' };
  return listed;
}
