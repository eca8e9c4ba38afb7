import type { ConformCheck, ConformContext } from '../check-types.js';
import type { ProbeAnswer, RecordedFrame } from '../probe-types.js';
import { describeAnswer, expectErrorCode, Findings, frameEvidence, skip } from './findings.js';
import { isModern, ITEM_BOUND } from './server-facts.js';
import { checkAgainstEntry } from '../../extensions/skills/digest.js';
import { ENTRY_RULE_SOURCES, entryProblems, fileKey, skillRootUri } from '../../extensions/skills/entry-rules.js';
import { frontmatterDifferences, parseSkillMarkdown } from '../../extensions/skills/frontmatter.js';
import { RESOURCES_DIRECTORY_READ_METHOD, SKILL_LIMITS, SKILLS_EXTENSION_ID, SKILLS_GET_METHOD, SKILLS_LIST_METHOD, skillsCapabilityOf, type Skill } from '../../extensions/skills/wire.js';

// `mcp conform`'s checks of the Skills extension (io.modelcontextprotocol/skills), run when a server
// declares it: each MUST of the extension's spec (github.com/modelcontextprotocol/ext-skills,
// specification/stable/skills.mdx; `section` names its heading) that a server can break on the wire.
// Each check fails on fixtures/servers/skills-broken-server.js with the BREAK that breaks its rule
// (test/e2e/skills-conform.test.ts).

const section = (anchor: string) => `ext-skills:skills.mdx#${anchor}`;
const MAX_PAGES = 100;
/** Bytes the files check reads at most: the extension's per-skill total, for the whole run. */
const READ_BOUND = SKILL_LIMITS.bytes;

interface ListedEntry {
  value: unknown;
  frame: RecordedFrame;
  path: string;
}

interface SkillListingProbe {
  entries: ListedEntry[];
  pages: RecordedFrame[];
  /** The answer that ended the listing early (an error, a timeout, a result without `skills`). */
  failed?: { answer: ProbeAnswer; why: string };
}

const listings = new WeakMap<ConformContext, Promise<SkillListingProbe>>();

/** Every page of skills/list, once per run. */
function listSkillPages(context: ConformContext): Promise<SkillListingProbe> {
  if (!listings.has(context)) listings.set(context, walk(context));
  return listings.get(context)!;
}

async function walk(context: ConformContext): Promise<SkillListingProbe> {
  const probe: SkillListingProbe = { entries: [], pages: [] };
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await context.channel.request(SKILLS_LIST_METHOD, cursor === undefined ? {} : { cursor });
    if (answer.kind !== 'result') return { ...probe, failed: { answer, why: `${SKILLS_LIST_METHOD} got ${describeAnswer(answer)}` } };
    probe.pages.push(answer.frame);
    const skills = answer.result.skills;
    if (!Array.isArray(skills)) return { ...probe, failed: { answer, why: `${SKILLS_LIST_METHOD} answered without a "skills" array` } };
    skills.forEach((value, index) => probe.entries.push({ value, frame: answer.frame, path: `result.skills[${index}]` }));
    const next = answer.result.nextCursor;
    if (typeof next !== 'string' || next === '' || seen.has(next)) return probe;
    seen.add(next);
    cursor = next;
  }
  return probe;
}

/** The listed entries that are valid skills, for the checks that use them (skills.list judges the others). */
async function validSkills(context: ConformContext): Promise<Array<ListedEntry & { skill: Skill }>> {
  const listing = await listSkillPages(context);
  return listing.entries.filter((entry) => entryProblems(entry.value).length === 0).map((entry) => ({ ...entry, skill: entry.value as Skill }));
}

/** skills.mdx#listing-skills / #getting-a-skill: on 2026-07-28 the results extend CacheableResult, so ttlMs and cacheScope are REQUIRED. */
function cacheFieldsProblem(context: ConformContext, result: Record<string, unknown>): string | undefined {
  if (!isModern(context)) return undefined;
  const missing = [typeof result.ttlMs === 'number' && result.ttlMs >= 0 ? undefined : 'ttlMs', result.cacheScope === 'public' || result.cacheScope === 'private' ? undefined : 'cacheScope'].filter(
    Boolean,
  );
  return missing.length > 0 ? `lacks ${missing.join(' and ')}, REQUIRED on 2026-07-28 (CacheableResult)` : undefined;
}

/** A server that declares the extension declares `resources` too, and the extension's value is an object. */
export const skillsCapability: ConformCheck = {
  id: 'skills.capability',
  title: 'A server declaring the Skills extension declares the resources capability',
  section: section('capability-negotiation'),
  async run(context) {
    const findings = new Findings();
    const frame = context.handshake.response;
    const declared = (context.capabilities.extensions as Record<string, unknown>)[SKILLS_EXTENSION_ID];
    if (typeof declared !== 'object' || declared === null || Array.isArray(declared))
      findings.fail(frameEvidence(frame, `capabilities.extensions["${SKILLS_EXTENSION_ID}"] is not an object (an empty object declares the extension)`, 'result.capabilities.extensions'));
    else if ('directoryRead' in declared && typeof (declared as { directoryRead?: unknown }).directoryRead !== 'boolean')
      findings.fail(frameEvidence(frame, 'the extension\'s "directoryRead" setting is not a boolean', 'result.capabilities.extensions'));
    // "A server declaring this extension therefore MUST also declare the resources capability."
    const resources = context.capabilities.resources;
    if (typeof resources !== 'object' || resources === null)
      findings.fail(frameEvidence(frame, 'the server declares the Skills extension but not the resources capability its files are served through', 'result.capabilities.resources'));
    return findings.outcome('the extension is declared with the resources capability');
  },
};

/** skills/list is served (a MUST of a server that declares the extension) and each entry keeps the entry rules. */
export const skillsList: ConformCheck = {
  id: 'skills.list',
  title: 'skills/list answers, and every entry is a valid skill entry',
  section: section('listing-skills'),
  async run(context) {
    const listing = await listSkillPages(context);
    const findings = new Findings();
    if (listing.failed) {
      const { answer, why } = listing.failed;
      findings.fail(frameEvidence(answer.kind === 'result' || answer.kind === 'error' ? answer.frame : undefined, `${why}: a server declaring the extension MUST implement skills/list`));
      return findings.outcome('');
    }
    for (const frame of listing.pages) {
      const problem = cacheFieldsProblem(context, (frame.message as { result: Record<string, unknown> }).result);
      if (problem) findings.fail(frameEvidence(frame, `the skills/list result ${problem}`, 'result'));
    }
    const counts = new Map<string, number>();
    for (const entry of listing.entries) {
      const uri = (entry.value as { uri?: unknown } | null)?.uri;
      if (typeof uri === 'string') counts.set(fileKey(uri), (counts.get(fileKey(uri)) ?? 0) + 1);
    }
    for (const entry of listing.entries) {
      for (const problem of entryProblems(entry.value)) findings.fail(frameEvidence(entry.frame, `${problem.message} (${ENTRY_RULE_SOURCES[problem.rule]})`, entry.path));
      const uri = (entry.value as { uri?: unknown } | null)?.uri;
      // skills.mdx#skill-uris: a skill is identified by its uri within a server; two entries for one uri leave a host to guess.
      if (typeof uri === 'string' && (counts.get(fileKey(uri)) ?? 0) > 1) findings.fail(frameEvidence(entry.frame, `${uri} is listed more than once (skills.mdx#skill-uris)`, `${entry.path}.uri`));
      // skills.mdx#limits: servers SHOULD NOT serve a skill over 512 files or 16 MiB (hosts need not load it).
      const resources = (entry.value as Skill | null)?.resources;
      if (Array.isArray(resources) && entryProblems(entry.value).length === 0) {
        const bytes = resources.reduce((sum, file) => sum + file.size, 0);
        if (resources.length > SKILL_LIMITS.files || bytes > SKILL_LIMITS.bytes)
          findings.warn(
            frameEvidence(
              entry.frame,
              `${String(uri)} has ${resources.length} files and ${bytes} bytes, over the ${SKILL_LIMITS.files} files and ${SKILL_LIMITS.bytes} bytes every host accepts (skills.mdx#limits)`,
              `${entry.path}.resources`,
            ),
          );
      }
    }
    return findings.outcome(
      `${listing.entries.length} skill${listing.entries.length === 1 ? '' : 's'} listed in ${listing.pages.length} page${listing.pages.length === 1 ? '' : 's'}, every entry valid`,
    );
  },
};

/** skills/get answers every listed skill with its own entry, and an unknown skill with -32602. */
export const skillsGet: ConformCheck = {
  id: 'skills.get',
  title: 'skills/get answers each listed skill, and -32602 for an unknown one',
  section: section('getting-a-skill'),
  async run(context) {
    const findings = new Findings();
    const skills = (await validSkills(context)).slice(0, ITEM_BOUND);
    for (const { skill } of skills) {
      const answer = await context.channel.request(SKILLS_GET_METHOD, { uri: skill.uri });
      // "A server MUST answer for every skill it serves, whether or not that skill appears in its skills/list result."
      if (answer.kind !== 'result') {
        findings.fail(
          frameEvidence(answer.kind === 'error' ? answer.frame : undefined, `skills/get of the listed ${skill.uri} got ${describeAnswer(answer)}`, answer.kind === 'error' ? 'error' : undefined),
        );
        continue;
      }
      const got = answer.result.skill;
      const problems = entryProblems(got);
      if (problems.length > 0)
        findings.fail(frameEvidence(answer.frame, `skills/get of ${skill.uri} answered an invalid entry: ${problems[0]!.message} (${ENTRY_RULE_SOURCES[problems[0]!.rule]})`, 'result.skill'));
      else if (fileKey((got as Skill).uri) !== fileKey(skill.uri))
        findings.fail(frameEvidence(answer.frame, `skills/get of ${skill.uri} answered another skill, ${(got as Skill).uri}`, 'result.skill.uri'));
      const cache = cacheFieldsProblem(context, answer.result);
      if (cache) findings.fail(frameEvidence(answer.frame, `the skills/get result ${cache}`, 'result'));
    }
    // "If the URI does not identify a skill the server serves, the server MUST return error -32602 (Invalid params)."
    const unknown = 'skill://toolrun-conform-no-such-skill/SKILL.md';
    expectErrorCode(findings, await context.channel.request(SKILLS_GET_METHOD, { uri: unknown }), -32602, `skills/get of the unknown ${unknown}`, { onOtherCode: 'fail' });
    return findings.outcome(`skills/get answered ${skills.length} listed skill${skills.length === 1 ? '' : 's'} with their entries, and -32602 for an unknown one`);
  },
};

/**
 * Each listed file's content is what its entry says (size and sha256: skills.mdx#integrity-and-verification),
 * and each SKILL.md begins with YAML frontmatter (name, description) identical to the entry's
 * (skills.mdx#skill-format, #frontmatter). Bounded: the first 25 skills, 16 MiB read in all.
 */
export const skillsFiles: ConformCheck = {
  id: 'skills.files',
  title: "Each skill's files match their digests and sizes, and SKILL.md's frontmatter matches the entry",
  section: section('integrity-and-verification'),
  async run(context) {
    const findings = new Findings();
    const skills = (await validSkills(context)).slice(0, ITEM_BOUND);
    if (skills.length === 0) return skip('the server lists no valid skill to read');
    let budget = READ_BOUND;
    let read = 0;
    const unread: string[] = [];
    for (const { skill } of skills) {
      const files = skill.resources === 'dynamic' ? [{ uri: skill.uri, digest: '', size: -1 }] : skill.resources;
      for (const file of files) {
        if (file.size > budget) {
          unread.push(file.uri);
          continue;
        }
        const answer = await context.channel.request('resources/read', { uri: file.uri });
        if (answer.kind !== 'result') {
          findings.fail(
            frameEvidence(answer.kind === 'error' ? answer.frame : undefined, `resources/read of the listed ${file.uri} got ${describeAnswer(answer)}`, answer.kind === 'error' ? 'error' : undefined),
          );
          continue;
        }
        const contents = Array.isArray(answer.result.contents) ? (answer.result.contents as Array<{ uri?: unknown; text?: unknown; blob?: unknown }>) : [];
        const content = contents.find((item) => typeof item.uri === 'string' && fileKey(item.uri) === fileKey(file.uri));
        const bytes = typeof content?.text === 'string' ? Buffer.from(content.text, 'utf8') : typeof content?.blob === 'string' ? Buffer.from(content.blob, 'base64') : undefined;
        if (!bytes) {
          findings.fail(frameEvidence(answer.frame, `resources/read of ${file.uri} returned no contents for it`, 'result.contents'));
          continue;
        }
        read++;
        budget -= bytes.byteLength;
        if (file.size >= 0) {
          const verdict = checkAgainstEntry(bytes, file);
          if (!verdict.ok)
            findings.fail(
              frameEvidence(answer.frame, `${file.uri}: ${verdict.message} (${verdict.reason === 'size' ? 'skills.mdx#resources' : 'skills.mdx#integrity-and-verification'})`, 'result.contents'),
            );
        }
        if (fileKey(file.uri) !== fileKey(skill.uri)) continue;
        // skills.mdx#skill-format: SKILL.md MUST begin with YAML frontmatter holding name and description;
        // skills.mdx#frontmatter: the entry's frontmatter MUST be identical in content to it.
        try {
          const { frontmatter } = parseSkillMarkdown(bytes.toString('utf8'));
          if (typeof frontmatter.name !== 'string' || typeof frontmatter.description !== 'string')
            findings.fail(frameEvidence(answer.frame, `${file.uri}: the frontmatter lacks a string name or description (skills.mdx#skill-format)`, 'result.contents'));
          const differences = frontmatterDifferences(skill.frontmatter, frontmatter);
          if (differences.length > 0)
            findings.fail(frameEvidence(answer.frame, `${file.uri}: the entry's frontmatter is not SKILL.md's: ${differences.join('; ')} (skills.mdx#frontmatter)`, 'result.contents'));
        } catch (error) {
          findings.fail(frameEvidence(answer.frame, `${file.uri}: ${(error as Error).message} (skills.mdx#skill-format)`, 'result.contents'));
        }
      }
    }
    if (unread.length > 0 && !findings.failed)
      findings.warn({ detail: `${unread.length} listed file${unread.length === 1 ? ' was' : 's were'} not read within the check's ${READ_BOUND}-byte bound (${unread[0]}…): not judged` });
    return findings.outcome(`${read} file${read === 1 ? '' : 's'} of ${skills.length} skill${skills.length === 1 ? '' : 's'} read, each matching its entry`);
  },
};

/**
 * With `directoryRead: true` the server MUST serve resources/directory/read (skills.mdx#capability-negotiation)
 * for every directory of its skills, and answer -32602 for a URI that is not a directory (#reading-directories).
 * Without it toolrun does not call the method: clients MUST NOT.
 */
export const skillsDirectory: ConformCheck = {
  id: 'skills.directory',
  title: 'resources/directory/read is served when directoryRead is declared',
  section: section('reading-directories'),
  async run(context) {
    if (skillsCapabilityOf(context.capabilities)?.directoryRead !== true) return skip('directoryRead is not declared (and toolrun does not call resources/directory/read then: clients MUST NOT)');
    const findings = new Findings();
    const skills = (await validSkills(context)).slice(0, ITEM_BOUND);
    if (skills.length === 0) return skip('the server lists no valid skill whose folder to read');
    for (const { skill } of skills.slice(0, 5)) {
      const root = skillRootUri(skill.uri)!;
      const answer = await context.channel.request(RESOURCES_DIRECTORY_READ_METHOD, { uri: root });
      if (answer.kind !== 'result')
        findings.fail(
          frameEvidence(
            answer.kind === 'error' ? answer.frame : undefined,
            `${RESOURCES_DIRECTORY_READ_METHOD} of the skill folder ${root} got ${describeAnswer(answer)}`,
            answer.kind === 'error' ? 'error' : undefined,
          ),
        );
      else if (!Array.isArray(answer.result.resources))
        findings.fail(frameEvidence(answer.frame, `${RESOURCES_DIRECTORY_READ_METHOD} of ${root} answered without a "resources" array`, 'result.resources'));
    }
    const file = skills[0]!.skill.uri;
    expectErrorCode(findings, await context.channel.request(RESOURCES_DIRECTORY_READ_METHOD, { uri: file }), -32602, `${RESOURCES_DIRECTORY_READ_METHOD} of the file ${file}`, { onOtherCode: 'fail' });
    return findings.outcome(`${RESOURCES_DIRECTORY_READ_METHOD} lists skill folders, and answers -32602 for a file`);
  },
};

export const SKILLS_CHECKS: readonly ConformCheck[] = [skillsCapability, skillsList, skillsGet, skillsFiles, skillsDirectory];

/** The Skills checks, for a server that declares the extension; none otherwise (its report stays the profile's). */
export function skillsChecksFor(capabilities: Record<string, unknown>): readonly ConformCheck[] {
  return skillsCapabilityOf(capabilities) === undefined ? [] : SKILLS_CHECKS;
}
