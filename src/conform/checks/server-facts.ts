import type { CheckOutcome, ConformContext, ListedPages } from '../check-types.js';
import { skip } from './findings.js';
import { LIST_ITEMS_KEY, type ListMethod } from '../list-all.js';
import type { RecordedFrame } from '../probe-types.js';

/** Does the handshake advertise this server capability (`tools`, `resources`, `prompts`, `completions`, `logging`)? */
export function advertises(context: ConformContext, capability: string): boolean {
  const value = context.capabilities[capability];
  return typeof value === 'object' && value !== null;
}

/** 2026-07-28 (stateless, `server/discover`) rather than the 2025 family (`initialize`). */
export function isModern(context: ConformContext): boolean {
  return context.channel.era === 'modern';
}

/** A listed item's place on the wire: the page frame it came in and its path inside it. */
export function locateItem(listed: ListedPages, item: Record<string, unknown>): { frame?: RecordedFrame; path: string } {
  const key = LIST_ITEMS_KEY[listed.method as ListMethod] ?? 'items';
  const text = JSON.stringify(item);
  for (const page of listed.pages) {
    const result = (page.frame?.message as { result?: Record<string, unknown> } | undefined)?.result;
    const items = result?.[key];
    if (!Array.isArray(items)) continue;
    let index = items.indexOf(item);
    if (index < 0) index = items.findIndex((candidate) => JSON.stringify(candidate) === text);
    if (index >= 0) return { frame: page.frame, path: `result.${key}[${index}]` };
  }
  return { path: `result.${key}` };
}

/** A listing that got no items because it failed: the reason, for a skip that points at the failure. */
export function listingFailure(listed: ListedPages): string | undefined {
  if (listed.items.length > 0 || !listed.stopped) return undefined;
  return `${listed.method} failed: ${listed.stopped.reason}`;
}

/** A name for something that must not exist: `base`, or `base-2`, … when the server happens to list `base`. */
export function unusedName(base: string, taken: Iterable<unknown>): string {
  const names = new Set(taken);
  let name = base;
  for (let n = 2; names.has(name); n += 1) name = `${base}-${n}`;
  return name;
}

/** How many items a check works through at most, so a server with thousands stays a quick run. */
export const ITEM_BOUND = 25;

/**
 * Every listed tool, resource or prompt, or the skip that says why there is nothing to judge: the
 * capability is not advertised, its listing failed (capabilities.honest judges that), or it is empty.
 */
export async function listedOrSkip(context: ConformContext, capability: 'tools' | 'resources' | 'prompts'): Promise<ListedPages | CheckOutcome> {
  if (!advertises(context, capability)) return skip(`the server advertises no ${capability}`);
  const listed = await context.listAll(`${capability}/list`);
  const failure = listingFailure(listed);
  if (failure) return skip(`${failure} (see capabilities.honest)`);
  if (listed.items.length === 0) return skip(`the server lists no ${capability}`);
  return listed;
}
