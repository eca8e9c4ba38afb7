import { entryShapeProblems, MANIFEST_SUFFIX, SKILL_NAME_PATTERN, type Skill } from './wire.js';

// The rules a `Skill` entry must keep, each with its source; `toolrun skills` refuses an entry that
// breaks one (skills.mdx#resources: "hosts MUST NOT load it") and `mcp conform` fails the server. The
// v2 SDK's validator (@modelcontextprotocol/core ext/skills entry.ts, validateSkillEntry) is the
// reference these agree with.

export type EntryRule = 'shape' | 'manifest-uri' | 'name' | 'description' | 'resources-self' | 'resources-inside' | 'resources-once';

export interface EntryProblem {
  rule: EntryRule;
  message: string;
}

/** Where each rule is written. */
export const ENTRY_RULE_SOURCES: Record<EntryRule, string> = {
  shape: 'skills.mdx#skill-entries',
  'manifest-uri': 'skills.mdx#resource-mapping',
  name: 'skills.mdx#frontmatter',
  description: 'skills.mdx#skill-format (agentskills.io/specification#description-field)',
  'resources-self': 'skills.mdx#resources',
  'resources-inside': 'skills.mdx#resources',
  'resources-once': 'skills.mdx#resources',
};

function canonicalUri(uri: string): string | undefined {
  try {
    return new URL(uri).href;
  } catch {
    return undefined;
  }
}

const safeDecode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The skill's root (its SKILL.md URI without `/SKILL.md`), or undefined when the URI is not a SKILL.md in a named folder (skills.mdx#resource-mapping). */
export function skillRootUri(skillMdUri: string): string | undefined {
  const canonical = canonicalUri(skillMdUri);
  if (canonical === undefined || !canonical.endsWith(MANIFEST_SUFFIX)) return undefined;
  const root = canonical.slice(0, -MANIFEST_SUFFIX.length);
  return root.endsWith('/') ? undefined : root;
}

/** The decoded last segment of a skill root: the skill's name by its path (the authority when the path is empty). */
export function lastSegmentOf(rootUri: string): string {
  const url = new URL(rootUri);
  const path = url.pathname;
  return safeDecode(path === '' || path === '/' ? url.host : path.slice(path.lastIndexOf('/') + 1));
}

/** `acme/billing/refunds` for `skill://acme/billing/refunds/SKILL.md`: the skill's path under its scheme. */
export function skillPathOf(skillMdUri: string): string {
  const root = skillRootUri(skillMdUri) ?? skillMdUri.replace(/\/SKILL\.md$/, '');
  return root.replace(/^[a-z][\d+.a-z-]*:\/\//i, '');
}

/** The path of `uri` below the skill root, decoded segment by segment; undefined when it is not strictly inside, or a segment is empty, `.`, `..` or holds `/`, `\` or NUL. */
export function relativePathIn(rootUri: string, uri: string): string[] | undefined {
  const canonical = canonicalUri(uri);
  if (canonical === undefined || /[?#]/.test(canonical) || !canonical.startsWith(`${rootUri}/`)) return undefined;
  const segments = canonical
    .slice(rootUri.length + 1)
    .split('/')
    .map(safeDecode);
  return segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..' && !/[/\\\0]/.test(segment)) ? segments : undefined;
}

/** One spelling of a file URI for comparisons (percent-encoding normalised, fragment dropped). */
export function fileKey(uri: string): string {
  const canonical = canonicalUri(uri);
  if (canonical === undefined) return uri;
  const url = new URL(canonical);
  url.hash = '';
  return url.href
    .split('/')
    .map((segment, index) => (index < 3 ? segment : encodeURIComponent(safeDecode(segment))))
    .join('/');
}

const characters = (text: string) => [...text].length;

/** Every rule `value` breaks as a skill entry; empty when it is a valid one. */
export function entryProblems(value: unknown): EntryProblem[] {
  const shape = entryShapeProblems(value);
  if (shape.length > 0) return shape.map((message) => ({ rule: 'shape', message }));
  const skill = value as Skill;
  const problems: EntryProblem[] = [];
  // skills.mdx#resource-mapping: the SKILL.md URI is `<skill-path>/SKILL.md`, the root its folder.
  const root = skillRootUri(skill.uri);
  if (root === undefined) return [{ rule: 'manifest-uri', message: `uri "${skill.uri}" is not a URI ending in /SKILL.md inside a named folder` }];
  const { name, description } = skill.frontmatter;
  // skills.mdx#resource-mapping and #frontmatter: the final segment MUST equal frontmatter.name and
  // MUST satisfy the Agent Skills naming rules (agentskills.io/specification#name-field).
  if (name.length === 0 || name.length > 64 || !SKILL_NAME_PATTERN.test(name))
    problems.push({ rule: 'name', message: `frontmatter name "${name}" is not 1-64 lowercase letters, digits and single hyphens` });
  else if (lastSegmentOf(root) !== name) problems.push({ rule: 'name', message: `frontmatter name "${name}" is not the skill's folder name "${lastSegmentOf(root)}"` });
  // agentskills.io/specification#description-field: 1-1024 characters.
  if (description === '' || characters(description) > 1024) problems.push({ rule: 'description', message: 'frontmatter description is not 1-1024 characters' });
  if (skill.resources === 'dynamic') return problems;
  // skills.mdx#resources: the array MUST be complete, each file exactly once, SKILL.md included, and
  // each uri MUST be the SKILL.md or a file within the skill's folder.
  const self = fileKey(skill.uri);
  const seen = new Set<string>();
  let hasSelf = false;
  for (const file of skill.resources) {
    const key = fileKey(file.uri);
    if (seen.has(key)) problems.push({ rule: 'resources-once', message: `resource "${file.uri}" is listed more than once` });
    seen.add(key);
    if (key === self) hasSelf = true;
    else if (relativePathIn(root, file.uri) === undefined) problems.push({ rule: 'resources-inside', message: `resource "${file.uri}" is not a file inside the skill's folder ${root}` });
  }
  if (!hasSelf) problems.push({ rule: 'resources-self', message: `resources does not list the skill's own ${skill.uri}` });
  return problems;
}
