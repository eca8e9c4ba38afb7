import type { McpClient, McpRequestOptions } from '../../mcp/mcp-client.js';
import { DEFAULT_BOUNDS, listSkills } from './catalog.js';

// Skills in `mcp snapshot` (SPEC §23): a snapshot of a server that declares the Skills
// extension has a `skills` list — each entry's uri, frontmatter and files (uri, digest, size), sorted —
// so a committed snapshot pins the skills' content (src/snapshot/skills-diff.ts compares two).

/** The valid skills/list entries, in a snapshot's canonical form (no `_meta`, files sorted by uri, entries by uri). */
export async function snapshotSkills(client: McpClient, options: McpRequestOptions): Promise<Array<Record<string, unknown>>> {
  const listing = await listSkills(client, { ...DEFAULT_BOUNDS, maxSkills: Number.MAX_SAFE_INTEGER }, options);
  return listing.skills
    .map((skill) => ({
      uri: skill.uri,
      frontmatter: skill.frontmatter,
      resources: skill.resources === 'dynamic' ? 'dynamic' : [...skill.resources].map(({ uri, digest, size }) => ({ digest, size, uri })).sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0)),
    }))
    .sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}
