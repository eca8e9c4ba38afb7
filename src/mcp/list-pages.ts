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

/** JSON-RPC's "Method not found" (JSON-RPC 2.0 §5.1): the server does not implement the request. */
export const METHOD_NOT_FOUND = -32601;

/** Whether an error is the server's -32601 answer (through the SDK, a session holder or a probe). */
export function isMethodNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === METHOD_NOT_FOUND;
}

/**
 * Every page of a paginated list (`tools/list`, `resources/list`, …): stops with an error after
 * MAX_LIST_PAGES pages or when a cursor comes back a second time (a loop), never runs forever.
 * With `methodNotFoundIsEmpty`, a -32601 to the first page is an empty list: the server has none
 * to list (server-postgres 0.6.2 advertises resources and answers resources/templates/list so).
 */
export async function listAllPages<T>(
  method: string,
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
  options: { methodNotFoundIsEmpty?: boolean } = {},
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    let page: { items: T[]; nextCursor?: string };
    try {
      page = await fetchPage(cursor);
    } catch (error) {
      if (pages === 1 && options.methodNotFoundIsEmpty && isMethodNotFound(error)) return [];
      throw error;
    }
    items.push(...page.items);
    cursor = page.nextCursor;
    if (cursor === undefined || cursor === '') return items;
    if (seen.has(cursor)) throw new EndlessListError(`${method} never ends: the server sent the same cursor again after ${pages} pages`);
    if (pages >= MAX_LIST_PAGES) throw new EndlessListError(`${method} never ends: still paging after ${MAX_LIST_PAGES} pages`);
    seen.add(cursor);
  }
}
