import type { ConformCheck, ListedPages } from '../check-types.js';
import { listAllPages, type ListMethod } from '../list-all.js';
import { expectErrorCode, Findings, frameEvidence, skip } from './findings.js';
import { advertises } from './server-facts.js';

const LISTINGS: { capability: string; method: ListMethod; key: string }[] = [
  { capability: 'tools', method: 'tools/list', key: 'name' },
  { capability: 'resources', method: 'resources/list', key: 'uri' },
  { capability: 'resources', method: 'resources/templates/list', key: 'uriTemplate' },
  { capability: 'prompts', method: 'prompts/list', key: 'name' },
];

/** A cursor no server minted. */
export const INVALID_CURSOR = 'toolrun-invalid-cursor';

/**
 * Every advertised listing: cursors followed to the end within the page bound, no cursor sent twice,
 * no item on two pages (MUST-level failures: a client loops or shows duplicates); listed a second
 * time it gives the same items (stable cursors, a SHOULD); an invalid cursor answers -32602 (SHOULD).
 */
export const paginationCursors: ConformCheck = {
  id: 'pagination.cursors',
  title: 'Listings paginate to the end, stable and bounded; invalid cursors answer -32602',
  section: 'server/utilities/pagination#implementation-guidelines',
  async run(context) {
    const listings = LISTINGS.filter((listing) => advertises(context, listing.capability));
    if (listings.length === 0) return skip('the server advertises no tools, resources or prompts');
    const findings = new Findings();
    let pages = 0;
    for (const { method, key } of listings) {
      const first = await context.listAll(method);
      pages += first.pages.length;
      if (first.stopped) {
        findings.fail(frameEvidence(first.stopped.frame, `${method} stopped: ${first.stopped.reason}`));
        continue;
      }
      findDuplicates(first, key, findings);
      const second = await listAllPages(context.channel, method, { timeoutMs: context.timeoutMs });
      const before = new Set(first.items.map((item) => JSON.stringify(item[key])));
      const after = new Set(second.items.map((item) => JSON.stringify(item[key])));
      const differ = [...before].filter((name) => !after.has(name)).concat([...after].filter((name) => !before.has(name)));
      if (second.stopped) findings.warn(frameEvidence(second.stopped.frame, `${method} listed a second time stopped: ${second.stopped.reason}`));
      else if (differ.length > 0) findings.warn({ detail: `${method} listed twice gave different items (${differ.slice(0, 3).join(', ')}): cursors are not stable` });
    }
    const probe = listings[0];
    if (probe) {
      const answer = await context.channel.request(probe.method, { cursor: INVALID_CURSOR });
      expectErrorCode(findings, answer, -32602, `${probe.method} with an invalid cursor`, { onResult: 'warn' });
    }
    return findings.outcome(`${listings.map((listing) => listing.method).join(', ')}: ${pages} page${pages === 1 ? '' : 's'} followed, stable; an invalid cursor answered -32602`);
  },
};

function findDuplicates(listed: ListedPages, key: string, findings: Findings): void {
  if (listed.pages.length < 2) return; // duplicates within one page are the item checks' business
  const pageOf = new Map<string, number>();
  for (const [pageIndex, page] of listed.pages.entries()) {
    const items = (page.frame?.message as { result?: Record<string, unknown> } | undefined)?.result;
    const list = Object.values(items ?? {}).find(Array.isArray) as Record<string, unknown>[] | undefined;
    for (const item of list ?? []) {
      const id = JSON.stringify(item?.[key]);
      const seenOn = pageOf.get(id);
      if (seenOn !== undefined && seenOn !== pageIndex) findings.fail(frameEvidence(page.frame, `${listed.method}: ${id} is on page ${seenOn + 1} and again on page ${pageIndex + 1}`));
      else pageOf.set(id, pageIndex);
    }
  }
}
