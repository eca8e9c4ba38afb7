import { ToolrunError } from '../errors.js';

/** A server that pages forever must not keep toolrun listing forever (SPEC §8). */
export const MAX_LIST_PAGES = 1000;

/** A list that never ends: a server bug that another attempt will not fix. */
export class EndlessListError extends ToolrunError {
  readonly code = 'ENDLESS_LIST';
  constructor(message: string) {
    super('tool_error', message);
    this.name = 'EndlessListError';
  }
}

/**
 * Every page of a paginated list (`tools/list`, `resources/list`, …): stops with an error after
 * MAX_LIST_PAGES pages or when a cursor comes back a second time (a loop), never runs forever.
 */
export async function listAllPages<T>(method: string, fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
    if (cursor === undefined || cursor === '') return items;
    if (seen.has(cursor)) throw new EndlessListError(`${method} never ends: the server sent the same cursor again after ${pages} pages`);
    if (pages >= MAX_LIST_PAGES) throw new EndlessListError(`${method} never ends: still paging after ${MAX_LIST_PAGES} pages`);
    seen.add(cursor);
  }
}
