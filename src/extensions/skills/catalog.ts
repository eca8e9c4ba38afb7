import type { McpClient, McpRequestOptions } from '../../mcp/mcp-client.js';
import { EndlessListError, MAX_LIST_PAGES } from '../../mcp/list-pages.js';
import { checkAgainstEntry } from './digest.js';
import { entryProblems, fileKey, relativePathIn, skillRootUri } from './entry-rules.js';
import { frontmatterDifferences, parseSkillMarkdown } from './frontmatter.js';
import { SKILL_LIMITS, SKILLS_GET_METHOD, SKILLS_LIST_METHOD, type Skill, type SkillResource } from './wire.js';

// What toolrun does with a server's skills, in either protocol era: list them (every page, bounded),
// get one by URI, read a file, and verify a skill's files against its entry (skills.mdx#integrity-and-verification).

/** How much one run may take in: skills listed and checked, and bytes read (SPEC: 256 and 64 MiB, raisable). */
export interface SkillBounds {
  maxSkills: number;
  maxBytes: number;
}

export const DEFAULT_BOUNDS: SkillBounds = { maxSkills: 256, maxBytes: 64 * 1024 * 1024 };

/** A listing entry refused, and why (skills.mdx#resources: an invalid entry MUST NOT be loaded). */
export interface InvalidEntry {
  index: number;
  uri?: string;
  reason: string;
}

export interface SkillListing {
  skills: Skill[];
  invalid: InvalidEntry[];
  /** Set when the listing went on past `maxSkills`: the skills beyond it were not taken in. */
  truncated?: string;
}

/** Lists every page of skills/list, up to `maxSkills` entries; invalid entries (and every copy of a repeated URI) are set apart. */
export async function listSkills(client: McpClient, bounds: SkillBounds, options: McpRequestOptions = {}): Promise<SkillListing> {
  const values: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let truncated: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await client.request(SKILLS_LIST_METHOD, cursor === undefined ? {} : { cursor }, options);
    if (!Array.isArray(page.skills)) throw new Error(`${SKILLS_LIST_METHOD} answered without a "skills" array`);
    values.push(...(page.skills as unknown[]));
    cursor = typeof page.nextCursor === 'string' && page.nextCursor !== '' ? page.nextCursor : undefined;
    if (values.length > bounds.maxSkills) {
      truncated = `the server lists more than ${bounds.maxSkills} skills; only the first ${bounds.maxSkills} were taken (raise --max-skills)`;
      values.length = bounds.maxSkills;
      break;
    }
    if (cursor === undefined) break;
    if (seen.has(cursor)) throw new EndlessListError(`${SKILLS_LIST_METHOD} never ends: the server sent the same cursor again after ${pages} pages`);
    if (pages >= MAX_LIST_PAGES) throw new EndlessListError(`${SKILLS_LIST_METHOD} never ends: still paging after ${MAX_LIST_PAGES} pages`);
    seen.add(cursor);
  }
  return { ...partitionEntries(values), ...(truncated ? { truncated } : {}) };
}

/** Valid entries apart from invalid ones; a URI listed twice makes both copies invalid (which one would the host load?). */
export function partitionEntries(values: unknown[]): { skills: Skill[]; invalid: InvalidEntry[] } {
  const uriOf = (value: unknown) => {
    const uri = (value as { uri?: unknown } | null)?.uri;
    return typeof uri === 'string' ? uri : undefined;
  };
  const counts = new Map<string, number>();
  for (const value of values) {
    const uri = uriOf(value);
    if (uri !== undefined) counts.set(fileKey(uri), (counts.get(fileKey(uri)) ?? 0) + 1);
  }
  const skills: Skill[] = [];
  const invalid: InvalidEntry[] = [];
  values.forEach((value, index) => {
    const uri = uriOf(value);
    const reasons = entryProblems(value).map((problem) => problem.message);
    if (uri !== undefined && (counts.get(fileKey(uri)) ?? 0) > 1) reasons.push('the same uri is listed more than once');
    if (reasons.length === 0) skills.push(value as Skill);
    else invalid.push({ index, ...(uri === undefined ? {} : { uri }), reason: reasons.join('; ') });
  });
  return { skills, invalid };
}

/** skills/get of `uri`: the entry, checked, and for the URI asked (skills.mdx#getting-a-skill). */
export async function getSkill(client: McpClient, uri: string, options: McpRequestOptions = {}): Promise<Skill> {
  const result = await client.request(SKILLS_GET_METHOD, { uri }, options);
  const problems = entryProblems(result.skill).map((problem) => problem.message);
  if (problems.length > 0) throw new InvalidSkillError(`${SKILLS_GET_METHOD} returned an invalid entry for ${uri}: ${problems.join('; ')}`);
  const skill = result.skill as Skill;
  if (fileKey(skill.uri) !== fileKey(uri)) throw new InvalidSkillError(`${SKILLS_GET_METHOD} for ${uri} returned another skill, ${skill.uri}`);
  return skill;
}

/** The server sent an entry that breaks the extension's rules: a problem found, exit 1. */
export class InvalidSkillError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSkillError';
  }
}

/** The bytes resources/read returns for `uri` (its text as UTF-8, or its blob decoded). */
export async function readSkillFile(client: McpClient, uri: string, options: McpRequestOptions = {}): Promise<{ bytes: Buffer; mimeType?: string; binary: boolean }> {
  const result = await client.request('resources/read', { uri }, options);
  const contents = Array.isArray(result.contents) ? (result.contents as Array<{ uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown }>) : [];
  const key = fileKey(uri);
  const content = contents.find((item) => typeof item.uri === 'string' && fileKey(item.uri) === key);
  if (!content) throw new Error(`resources/read returned no contents for ${uri}`);
  const mimeType = typeof content.mimeType === 'string' ? content.mimeType : undefined;
  if (typeof content.text === 'string') return { bytes: Buffer.from(content.text, 'utf8'), ...(mimeType ? { mimeType } : {}), binary: false };
  if (typeof content.blob === 'string') return { bytes: Buffer.from(content.blob, 'base64'), ...(mimeType ? { mimeType } : {}), binary: true };
  throw new Error(`resources/read returned neither text nor blob for ${uri}`);
}

/**
 * One file's verdict: `verified` (size, digest and, for SKILL.md, frontmatter match the entry),
 * `size` / `digest` / `frontmatter` (a verification failure: skills.mdx says the content MUST NOT be
 * used), `unverifiable` (a "dynamic" skill: nothing to check against), `unread` (not read within the
 * run's bounds: not checked, never passed), `error` (the read failed).
 */
export type FileVerdict = 'verified' | 'size' | 'digest' | 'frontmatter' | 'unverifiable' | 'unread' | 'error';

export interface FileCheck {
  uri: string;
  /** The file's path in the skill (`references/GUIDE.md`). */
  path: string;
  verdict: FileVerdict;
  message?: string;
  /** Listed size (the bytes read for a "dynamic" skill). */
  size?: number;
  /** The bytes read, when they were (for `skills read`). */
  bytes?: Buffer;
  binary?: boolean;
  mimeType?: string;
}

/** A skill's verdict: every file verified; a mismatch; "dynamic"; or not fully checked within the bounds. */
export type SkillVerdict = 'verified' | 'mismatch' | 'unverifiable' | 'incomplete';

export interface SkillCheck {
  verdict: SkillVerdict;
  files: FileCheck[];
  /** Said when the entry is over the extension's per-skill limits (servers SHOULD NOT serve such a skill). */
  overLimits?: string;
}

/** What is left of a run's byte bound; shared by every skill checked in the run. */
export class ReadBudget {
  constructor(public remaining: number) {}
}

/** The path of `uri` in the skill, for display and for writing under a folder. */
export function pathInSkill(skill: Skill, uri: string): string {
  const root = skillRootUri(skill.uri)!;
  if (fileKey(uri) === fileKey(skill.uri)) return 'SKILL.md';
  return relativePathIn(root, uri)?.join('/') ?? uri;
}

/**
 * Reads and verifies the files of `skill` (all of them, or those in `only`) against its entry, within
 * `budget`. A file over what is left of the budget is not read (`unread`), and the skill is then
 * `incomplete`, never verified. A "dynamic" skill's SKILL.md is read and its frontmatter compared;
 * the rest of its files cannot be known or checked.
 */
export async function verifySkill(
  client: McpClient,
  skill: Skill,
  budget: ReadBudget,
  options: McpRequestOptions & { only?: SkillResource[]; keepBytes?: boolean; manifestFirst?: boolean } = {},
): Promise<SkillCheck> {
  const files: FileCheck[] = [];
  let overLimits: string | undefined;
  let listed: SkillResource[] = skill.resources === 'dynamic' ? [{ uri: skill.uri, digest: '', size: -1 }] : (options.only ?? skill.resources);
  // Loading a skill (manifestFirst): its SKILL.md is read and verified before any other file, and when
  // it fails no other file is read (skills.mdx#verification-on-read: on a discrepancy the host MUST NOT
  // load the skill; the conformance suite's sep-2640-client-verify-* scenarios fail a client that reads on).
  const manifest = options.manifestFirst && Array.isArray(skill.resources) ? skill.resources.find((resource) => pathInSkill(skill, resource.uri) === 'SKILL.md') : undefined;
  if (manifest) listed = [manifest, ...listed.filter((resource) => resource !== manifest && pathInSkill(skill, resource.uri) !== 'SKILL.md')];
  let manifestFailed = false;
  if (Array.isArray(skill.resources)) {
    const total = skill.resources.reduce((sum, file) => sum + file.size, 0);
    // skills.mdx#limits: 512 files and 16 MiB a skill; hosts MUST accept up to these, MAY more.
    if (skill.resources.length > SKILL_LIMITS.files || total > SKILL_LIMITS.bytes)
      overLimits = `the skill has ${skill.resources.length} files and ${total} bytes, over the extension's per-skill limits (${SKILL_LIMITS.files} files, ${SKILL_LIMITS.bytes} bytes): not every host will load it`;
  }
  for (const file of listed) {
    const path = pathInSkill(skill, file.uri);
    const dynamic = file.size < 0;
    if (manifestFailed) {
      files.push({ uri: file.uri, path, verdict: 'unread', size: file.size, message: "not read: the skill's SKILL.md failed verification, so the skill is not loaded" });
      continue;
    }
    if (manifest && file === manifest) manifestFailed = true; // until it is verified below
    if (!dynamic && file.size > budget.remaining) {
      files.push({ uri: file.uri, path, verdict: 'unread', size: file.size, message: `not read: over what is left of the run's ${'--max-bytes'} bound (${budget.remaining} bytes)` });
      continue;
    }
    let read: Awaited<ReturnType<typeof readSkillFile>>;
    try {
      read = await readSkillFile(client, file.uri, options);
    } catch (error) {
      files.push({ uri: file.uri, path, verdict: 'error', ...(dynamic ? {} : { size: file.size }), message: (error as Error).message });
      continue;
    }
    budget.remaining -= read.bytes.byteLength;
    const kept = { ...(options.keepBytes ? { bytes: read.bytes } : {}), binary: read.binary, ...(read.mimeType ? { mimeType: read.mimeType } : {}) };
    if (dynamic && budget.remaining < 0) {
      files.push({ uri: file.uri, path, verdict: 'unread', size: read.bytes.byteLength, message: "read past the run's --max-bytes bound" });
      continue;
    }
    if (!dynamic) {
      const checked = checkAgainstEntry(read.bytes, file);
      if (!checked.ok) {
        files.push({ uri: file.uri, path, verdict: checked.reason, size: file.size, message: checked.message, ...kept });
        continue;
      }
    }
    if (path === 'SKILL.md') {
      // skills.mdx#frontmatter-verification: parse SKILL.md's frontmatter and compare it field by field with the entry's.
      const differences = frontmatterProblems(read.bytes, skill);
      if (differences) {
        files.push({ uri: file.uri, path, verdict: 'frontmatter', size: dynamic ? read.bytes.byteLength : file.size, message: differences, ...kept });
        continue;
      }
    }
    if (file === manifest) manifestFailed = false;
    files.push({ uri: file.uri, path, verdict: dynamic ? 'unverifiable' : 'verified', size: dynamic ? read.bytes.byteLength : file.size, ...kept });
  }
  return { verdict: skillVerdict(files), files, ...(overLimits ? { overLimits } : {}) };
}

function frontmatterProblems(bytes: Buffer, skill: Skill): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return 'SKILL.md is not valid UTF-8';
  }
  try {
    const differences = frontmatterDifferences(skill.frontmatter, parseSkillMarkdown(text).frontmatter);
    return differences.length > 0 ? `the frontmatter differs from the entry: ${differences.join('; ')}` : undefined;
  } catch (error) {
    return `the frontmatter cannot be read: ${(error as Error).message}`;
  }
}

function skillVerdict(files: FileCheck[]): SkillVerdict {
  if (files.some((file) => ['size', 'digest', 'frontmatter', 'error'].includes(file.verdict))) return 'mismatch';
  if (files.some((file) => file.verdict === 'unread')) return 'incomplete';
  if (files.some((file) => file.verdict === 'unverifiable')) return 'unverifiable';
  return 'verified';
}
