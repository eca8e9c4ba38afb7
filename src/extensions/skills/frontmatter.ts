import { parse } from 'yaml';

// skills.mdx#skill-format: SKILL.md MUST begin with YAML frontmatter holding at least `name` and
// `description`; skills.mdx#frontmatter-verification: hosts MUST parse it and compare it field by field
// with the entry's `frontmatter`, any difference a verification failure.

/** SKILL.md split into its frontmatter (parsed, YAML 1.2 core schema) and body; throws a phrase saying what is wrong. */
export function parseSkillMarkdown(markdown: string): { frontmatter: Record<string, unknown>; body: string } {
  let text = markdown.replaceAll('\r\n', '\n');
  if (text.codePointAt(0) === 0xfeff) text = text.slice(1);
  if (!text.startsWith('---\n')) throw new Error('SKILL.md does not begin with a "---" line (YAML frontmatter)');
  const rest = text.slice(4);
  const close = /^---[\t ]*$/m.exec(rest);
  if (!close) throw new Error('the frontmatter has no closing "---" line');
  let body = rest.slice(close.index + close[0].length);
  if (body.startsWith('\n')) body = body.slice(1);
  let parsed: unknown;
  try {
    parsed = parse(rest.slice(0, close.index), { schema: 'core', uniqueKeys: true, merge: false, maxAliasCount: 0 });
  } catch (error) {
    throw new Error(`the frontmatter is not valid YAML: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
  if (parsed === null || parsed === undefined) parsed = {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the frontmatter is not a mapping of keys to values');
  return { frontmatter: parsed as Record<string, unknown>, body };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const show = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));

/** Field-level differences between the entry's frontmatter and SKILL.md's: every key both ways, arrays in order, no coercion. */
export function frontmatterDifferences(entry: unknown, parsed: unknown, path = ''): string[] {
  const label = path === '' ? '(frontmatter)' : path;
  if (Array.isArray(entry) && Array.isArray(parsed)) {
    if (entry.length !== parsed.length) return [`${label}: the entry has ${entry.length} items, SKILL.md has ${parsed.length}`];
    return entry.flatMap((item, index) => frontmatterDifferences(item, parsed[index], `${path}[${index}]`));
  }
  if (isPlainObject(entry) && isPlainObject(parsed)) {
    const keys = [...new Set([...Object.keys(entry), ...Object.keys(parsed)])].sort();
    return keys.flatMap((key) => frontmatterDifferences(entry[key], parsed[key], path === '' ? key : `${path}.${key}`));
  }
  return entry === parsed ? [] : [`${label}: the entry has ${show(entry)}, SKILL.md has ${show(parsed)}`];
}
