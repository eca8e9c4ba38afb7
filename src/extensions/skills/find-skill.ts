import type { McpClient, McpRequestOptions } from '../../mcp/mcp-client.js';
import { getSkill, listSkills, type SkillBounds } from './catalog.js';
import { lastSegmentOf, skillPathOf, skillRootUri } from './entry-rules.js';
import type { Skill } from './wire.js';

/** Why a skill could not be found: `ambiguous` (a shared name: usage), `missing` (no such skill), `invalid` (its entry breaks the rules). */
export class SkillLookupError extends Error {
  constructor(
    readonly kind: 'ambiguous' | 'missing' | 'invalid',
    message: string,
    /** For `ambiguous`: the paths of the skills that share the name. */
    readonly paths: string[] = [],
  ) {
    super(message);
    this.name = 'SkillLookupError';
  }
}

export const isSkillUri = (ref: string) => /^[a-z][\d+.a-z-]*:\/\//i.test(ref);

/**
 * The entry of the skill `ref` names: a SKILL.md URI is asked with skills/get (a skill need not be
 * listed: skills.mdx#getting-a-skill); a path (`acme/billing/refunds`) or a name is found in the
 * listing, and a name two skills share is refused with their paths (skills.mdx#names: hosts MUST
 * disambiguate, never silently prefer one). A path the listing lacks is asked for as
 * `skill://PATH/SKILL.md`, as a listing may be partial (skills.mdx#listing-skills). Errors of the
 * requests themselves are thrown as they come (the caller names the method).
 */
export async function findSkill(client: McpClient, ref: string, bounds: SkillBounds, options: McpRequestOptions = {}): Promise<Skill> {
  // skills.mdx#getting-a-skill: -32602 is the server's answer for a URI that is no skill it serves.
  const get = (uri: string) =>
    getSkill(client, uri, options).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== -32602) throw error;
      const said = String((error as Error).message ?? error).replace(/^(MCP error -?\d+: )+/, '');
      throw new SkillLookupError('missing', `no skill is served at ${uri} (skills/get: ${said})`);
    });
  if (isSkillUri(ref)) return get(ref);
  const listing = await listSkills(client, bounds, options);
  const trimmed = ref.replace(/\/+$/, '').replace(/\/SKILL\.md$/, '');
  const byPath = listing.skills.filter((skill) => skillPathOf(skill.uri) === trimmed);
  if (byPath.length === 1) return byPath[0]!;
  const byName = listing.skills.filter((skill) => skill.frontmatter.name === trimmed);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) {
    const paths = byName.map((skill) => skillPathOf(skill.uri));
    throw new SkillLookupError('ambiguous', `${byName.length} skills are named '${trimmed}': ${paths.join(', ')}; name one by its path`, paths);
  }
  const invalid = listing.invalid.find((entry) => entry.uri !== undefined && (skillPathOf(entry.uri) === trimmed || lastSegmentOf(skillRootUri(entry.uri) ?? 'x://x') === trimmed));
  if (invalid) throw new SkillLookupError('invalid', `'${trimmed}' is listed with an invalid entry: ${invalid.reason}`);
  if (trimmed.includes('/') || listing.truncated) return get(`skill://${trimmed}/SKILL.md`);
  throw new SkillLookupError('missing', `no skill '${trimmed}' is listed`);
}
