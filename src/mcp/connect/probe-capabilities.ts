import { oneLine } from './classify-attempt.js';
import { causesInText, mainCause } from '../causes/failure-causes.js';
import { listItems } from '../list-items.js';
import type { ServerConnection } from '../server-connection.js';

/** What listing one advertised capability gave: a count, or the failure with its fix. */
export interface CapabilityProbe {
  capability: 'resources' | 'prompts';
  count?: number;
  /** "resources/list failed: connect ECONNREFUSED 127.0.0.1:5432" */
  error?: string;
  fix?: string;
}

/**
 * Lists every capability beyond tools that the server advertises (resources, prompts), every page.
 * A capability advertised but not served (its backend is down) is a problem, with the fix its error
 * names (SPEC §9). doctor and `mcp list --check` both use this, so they agree.
 */
export async function probeCapabilities(connection: ServerConnection, timeoutMs: number): Promise<CapabilityProbe[]> {
  const probes: CapabilityProbe[] = [];
  for (const listing of [{ capability: 'resources' }, { capability: 'prompts' }] as const) {
    if (!connection.capabilities?.[listing.capability]) continue;
    const method = `${listing.capability}/list`;
    try {
      const items = await listItems(connection.client, listing.capability, { timeout: timeoutMs }, true);
      probes.push({ capability: listing.capability, count: items.length });
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
