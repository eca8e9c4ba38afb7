// Wire constants and shapes of the MCP Skills extension (`io.modelcontextprotocol/skills`, SEP-2640,
// Final 2026-09-13). The spec: github.com/modelcontextprotocol/ext-skills specification/stable/skills.mdx
// (cited below as "skills.mdx#anchor"); the v2 SDK keeps the same split (@modelcontextprotocol/core
// ext/skills: constants and schemas apart from behaviour). Nothing here talks to a server.

/** skills.mdx#extension-identifier: what a server declares in `capabilities.extensions`. */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
export const SKILLS_LIST_METHOD = 'skills/list';
export const SKILLS_GET_METHOD = 'skills/get';
/** skills.mdx#reading-directories: served only by a server that declares `directoryRead: true`. */
export const RESOURCES_DIRECTORY_READ_METHOD = 'resources/directory/read';
export const DIRECTORY_MIME_TYPE = 'inode/directory';
/**
 * skills.mdx#limits: hosts MUST support skills up to 512 files and 16 MiB (the sum of `size`);
 * servers SHOULD NOT serve larger ones.
 */
export const SKILL_LIMITS = Object.freeze({ files: 512, bytes: 16 * 1024 * 1024 });
/** skills.mdx#integrity-and-verification: `sha256:` then 64 lowercase hexadecimal characters. */
export const SKILL_DIGEST_PATTERN = /^sha256:[\da-f]{64}$/;
/** skills.mdx#resource-mapping: a skill is addressed by the URI of its `SKILL.md`. */
export const MANIFEST_SUFFIX = '/SKILL.md';
/** agentskills.io/specification#name-field: 1-64 lowercase letters, digits and single hyphens. */
export const SKILL_NAME_PATTERN = /^[\da-z]+(?:-[\da-z]+)*$/;

/** skills.mdx#skill-entries: one file of a skill. */
export interface SkillResource {
  uri: string;
  digest: string;
  size: number;
}

/** skills.mdx#skill-entries: the entry `skills/list` and `skills/get` return. */
export interface Skill {
  uri: string;
  frontmatter: { name: string; description: string; [key: string]: unknown };
  resources: SkillResource[] | 'dynamic';
  _meta?: Record<string, unknown>;
}

/** The extension's settings a server declared, or undefined when it did not declare it (skills.mdx#capability-negotiation). */
export function skillsCapabilityOf(capabilities: Record<string, unknown> | undefined): { directoryRead?: boolean } | undefined {
  const extensions = capabilities?.extensions;
  if (!extensions || typeof extensions !== 'object') return undefined;
  const declared = (extensions as Record<string, unknown>)[SKILLS_EXTENSION_ID];
  if (declared === undefined) return undefined;
  return declared && typeof declared === 'object' && !Array.isArray(declared) ? (declared as { directoryRead?: boolean }) : {};
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The shape problems of a value received as a `Skill` entry (skills.mdx#skill-entries), each a
 * phrase naming the field; empty when it has the shape (the rules on its values are entry-rules').
 */
export function entryShapeProblems(value: unknown): string[] {
  if (!isObject(value)) return ['the entry is not an object'];
  const problems: string[] = [];
  if (typeof value.uri !== 'string') problems.push('uri: not a string');
  const frontmatter = value.frontmatter;
  if (!isObject(frontmatter)) problems.push('frontmatter: not an object');
  else {
    if (typeof frontmatter.name !== 'string') problems.push('frontmatter.name: not a string');
    if (typeof frontmatter.description !== 'string') problems.push('frontmatter.description: not a string');
    if (Object.getPrototypeOf(frontmatter) !== Object.prototype) problems.push('frontmatter: has a "__proto__" field');
  }
  const resources = value.resources;
  // skills.mdx#resources: REQUIRED; an array or "dynamic", any other value is invalid and MUST NOT be loaded.
  if (resources === undefined) problems.push('resources: missing (an array of files or "dynamic" is required)');
  else if (resources !== 'dynamic' && !Array.isArray(resources)) problems.push('resources: neither an array nor "dynamic"');
  else if (Array.isArray(resources))
    resources.forEach((file: unknown, index) => {
      if (!isObject(file)) return problems.push(`resources[${index}]: not an object`);
      if (typeof file.uri !== 'string') problems.push(`resources[${index}].uri: not a string`);
      // skills.mdx#integrity-and-verification: the digest format.
      if (typeof file.digest !== 'string' || !SKILL_DIGEST_PATTERN.test(file.digest)) problems.push(`resources[${index}].digest: not "sha256:" and 64 lowercase hex characters`);
      // skills.mdx#resources: each entry MUST carry `size`, the length in bytes.
      if (typeof file.size !== 'number' || !Number.isSafeInteger(file.size) || file.size < 0) problems.push(`resources[${index}].size: not a byte count`);
      return undefined;
    });
  return problems;
}
