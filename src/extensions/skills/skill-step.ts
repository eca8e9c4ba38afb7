import type { McpClient, McpRequestOptions } from '../../mcp/mcp-client.js';
import { DEFAULT_BOUNDS, listSkills, ReadBudget, verifySkill } from './catalog.js';
import { skillPathOf } from './entry-rules.js';
import { findSkill } from './find-skill.js';

// `toolrun test`'s `skill:` and `list: skills` steps (SPEC §23): the same lookups and verification as
// `toolrun skills`, with the run's default bounds.

type Outcome = { result?: unknown; error?: { message: string; code?: number } };

const failed = (error: unknown): Outcome => {
  const code = (error as { code?: unknown }).code;
  return { error: { message: String((error as Error).message ?? error), ...(typeof code === 'number' ? { code } : {}) } };
};

/**
 * `skill: SKILL`: the skill's entry and each file read and verified. The result is
 * `{uri, path, name, frontmatter, resources, verdict, files: [{path, uri, verdict, size, message}]}`; a
 * verdict of `mismatch` (a digest, size or frontmatter differs) or `incomplete` (not fully checked
 * within the bounds) is also the step's error, so a step with no `expect` fails on it.
 */
export async function skillStep(client: McpClient, ref: string, options: McpRequestOptions): Promise<Outcome> {
  try {
    const skill = await findSkill(client, ref, DEFAULT_BOUNDS, options);
    const check = await verifySkill(client, skill, new ReadBudget(DEFAULT_BOUNDS.maxBytes), options);
    const files = check.files.map(({ path, uri, verdict, size, message }) => ({ path, uri, verdict, ...(size !== undefined ? { size } : {}), ...(message ? { message } : {}) }));
    const result = { uri: skill.uri, path: skillPathOf(skill.uri), name: skill.frontmatter.name, frontmatter: skill.frontmatter, resources: skill.resources, verdict: check.verdict, files };
    if (check.verdict !== 'mismatch' && check.verdict !== 'incomplete') return { result };
    const bad = check.files.filter((file) => file.verdict !== 'verified' && file.verdict !== 'unverifiable');
    return {
      result,
      error: {
        message: `skill ${skillPathOf(skill.uri)} ${check.verdict === 'mismatch' ? 'fails verification' : 'was not fully checked'}: ${bad.map((file) => `${file.path} (${file.verdict}: ${file.message})`).join('; ')}`,
      },
    };
  } catch (error) {
    return failed(error);
  }
}

/** `list: skills`: the valid entries of skills/list; invalid entries make the step's error. */
export async function listSkillsStep(client: McpClient, options: McpRequestOptions): Promise<Outcome> {
  try {
    const listing = await listSkills(client, DEFAULT_BOUNDS, options);
    if (listing.invalid.length === 0) return { result: listing.skills };
    return { result: listing.skills, error: { message: `skills/list has invalid entries: ${listing.invalid.map((entry) => `#${entry.index} ${entry.uri ?? ''}: ${entry.reason}`).join('; ')}` } };
  } catch (error) {
    return failed(error);
  }
}
