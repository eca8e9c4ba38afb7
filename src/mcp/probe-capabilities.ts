import { oneLine } from './classify-attempt.js';
import { causesInText, mainCause } from './failure-causes.js';
import type { ServerConnection } from './server-connection.js';

/** What listing one advertised capability gave: a count, or the failure with its fix. */
export interface CapabilityProbe {
  capability: 'resources' | 'prompts';
  count?: number;
  /** "resources/list failed: connect ECONNREFUSED 127.0.0.1:5432" */
  error?: string;
  fix?: string;
}

/** A server that pages forever must not keep toolrun listing forever. */
const MAX_PAGES = 1000;

/**
 * Lists every capability beyond tools that the server advertises (resources, prompts), every page.
 * A capability advertised but not served (its backend is down) is a problem, with the fix its error
 * names (SPEC §9). doctor and `mcp list --check` both use this, so they agree.
 */
export async function probeCapabilities(connection: ServerConnection, timeoutMs: number): Promise<CapabilityProbe[]> {
  const client = connection.client;
  const listings = [
    { capability: 'resources', page: (cursor?: string) => client.listResources(cursor ? { cursor } : undefined, { timeout: timeoutMs }).then((r) => ({ count: r.resources.length, next: r.nextCursor })) },
    { capability: 'prompts', page: (cursor?: string) => client.listPrompts(cursor ? { cursor } : undefined, { timeout: timeoutMs }).then((r) => ({ count: r.prompts.length, next: r.nextCursor })) },
  ] as const;
  const probes: CapabilityProbe[] = [];
  for (const listing of listings) {
    if (!connection.capabilities?.[listing.capability]) continue;
    const method = `${listing.capability}/list`;
    try {
      let count = 0;
      let cursor: string | undefined;
      const seen = new Set<string>();
      for (let pages = 0; ; pages++) {
        const page = await listing.page(cursor);
        count += page.count;
        cursor = page.next;
        if (!cursor) break;
        if (seen.has(cursor) || pages >= MAX_PAGES) throw new Error(`${method} never ends (${seen.has(cursor) ? 'the same cursor came back' : `over ${MAX_PAGES} pages`})`);
        seen.add(cursor);
      }
      probes.push({ capability: listing.capability, count });
    } catch (error) {
      const message = oneLine((error as Error)?.message ?? String(error)).replace(/^MCP error -?\d+: /, '');
      const cause = mainCause(causesInText(message));
      probes.push({
        capability: listing.capability,
        error: `${method} failed: ${message}`,
        fix: cause?.fix ?? `the server advertises ${listing.capability} but cannot list them: see its stderr, or stop advertising the capability`,
      });
    }
  }
  return probes;
}
