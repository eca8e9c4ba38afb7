import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServerScript } from '../helpers/bundled-servers.js';
import { startHttpFixture, type HttpFixture } from '../helpers/http-fixture.js';
import { runInProcess } from '../helpers/run-in-process.js';

// `mcp conform` checks every MUST of the Skills extension (ext-skills specification/stable/skills.mdx)
// a server can break on the wire, when the server declares it: each check fails on the hand-rolled
// fixture that breaks its rule (fixtures/servers/skills-broken-server.js, BREAK=…) and passes on a
// correct server, the v2 SDK's (skills-server.js) in both eras, over stdio and HTTP.
const SKILLS_IDS = ['skills.capability', 'skills.list', 'skills.get', 'skills.files', 'skills.directory'];

interface Report {
  checks: Array<{ id: string; verdict: string; message: string }>;
}

async function conform(args: string[], env: Record<string, string> = {}): Promise<{ report: Report; exitCode: number }> {
  const result = await runInProcess(['--json', 'mcp', 'conform', ...args], { env });
  return { report: JSON.parse(result.stdout) as Report, exitCode: result.exitCode };
}

const verdicts = (report: Report) => Object.fromEntries(report.checks.filter((check) => check.id.startsWith('skills.')).map((check) => [check.id, check.verdict]));

describe('mcp conform: the Skills extension', () => {
  let http: HttpFixture;
  beforeAll(async () => {
    http = await startHttpFixture('skills-server.js', { TRANSPORT: 'http', MODE: 'directory' });
  });
  afterAll(async () => {
    await http?.stop();
  });

  const broken = (BREAK: string) => conform(['--', process.execPath, fixtureServerScript('skills-broken-server.js')], { BREAK });

  // (Its other checks are not this file's business: the hand-rolled loop answers initialize loosely.)
  it('passes a correct hand-rolled server (2025-11-25), the directory check skipped when not declared, run when declared', async () => {
    expect(verdicts((await broken('')).report)).toEqual({ 'skills.capability': 'pass', 'skills.list': 'pass', 'skills.get': 'pass', 'skills.files': 'pass', 'skills.directory': 'skip' });
    expect(verdicts((await broken('directory-ok')).report)).toEqual(Object.fromEntries(SKILLS_IDS.map((id) => [id, 'pass'])));
  });

  it.each([
    ['no-resources-capability', 'skills.capability', 'the server declares the Skills extension but not the resources capability its files are served through'],
    ['no-list', 'skills.list', 'skills/list got error -32601 (Method not found: skills/list): a server declaring the extension MUST implement skills/list'],
    ['bad-uri', 'skills.list', 'uri "skill://acme/refunds/README.md" is not a URI ending in /SKILL.md inside a named folder (skills.mdx#resource-mapping)'],
    ['name-not-folder', 'skills.list', 'frontmatter name "returns" is not the skill\'s folder name "refunds" (skills.mdx#frontmatter)'],
    ['bad-name', 'skills.list', 'frontmatter name "Refunds_2" is not 1-64 lowercase letters, digits and single hyphens (skills.mdx#frontmatter)'],
    ['missing-self', 'skills.list', "resources does not list the skill's own skill://acme/refunds/SKILL.md (skills.mdx#resources)"],
    ['outside', 'skills.list', 'resource "skill://acme/other/notes.md" is not a file inside the skill\'s folder skill://acme/refunds (skills.mdx#resources)'],
    ['duplicate', 'skills.list', 'resource "skill://acme/refunds/examples/email.md" is listed more than once (skills.mdx#resources)'],
    ['bad-digest', 'skills.list', 'resources[1].digest: not "sha256:" and 64 lowercase hex characters (skills.mdx#skill-entries)'],
    ['no-size', 'skills.list', 'resources[1].size: not a byte count (skills.mdx#skill-entries)'],
    ['no-resources', 'skills.list', 'resources: missing (an array of files or "dynamic" is required) (skills.mdx#skill-entries)'],
    ['no-get', 'skills.get', 'skills/get of the listed skill://acme/refunds/SKILL.md got error -32601 (Method not found: skills/get) (and 1 more)'],
    ['get-unknown-result', 'skills.get', 'skills/get of the unknown skill://toolrun-conform-no-such-skill/SKILL.md answered with a result instead of error -32602'],
    ['get-listed-refused', 'skills.get', 'skills/get of the listed skill://acme/refunds/SKILL.md got error -32602 (No skill is served at skill://acme/refunds/SKILL.md)'],
    ['get-other-skill', 'skills.get', 'skills/get of skill://acme/refunds/SKILL.md answered another skill, skill://acme/other/SKILL.md (and 1 more)'],
    [
      'digest-mismatch',
      'skills.files',
      'skill://acme/refunds/examples/email.md: digest sha256:e1a41f79528ceec1e26b2d0a37cb08a99988f055d768635b778d04f714d4e7f5; the entry lists sha256:6578b084d3a525025a989172e64a0b0b6c6f8518342e534d3f1d621a838f9330 (skills.mdx#integrity-and-verification)',
    ],
    ['size-mismatch', 'skills.files', 'skill://acme/refunds/examples/email.md: 43 bytes read; the entry lists 42 (skills.mdx#resources)'],
    [
      'frontmatter-differs',
      'skills.files',
      'skill://acme/refunds/SKILL.md: the entry\'s frontmatter is not SKILL.md\'s: description: the entry has "Refund anything, no questions asked", SKILL.md has "Process refund requests" (skills.mdx#frontmatter)',
    ],
    ['no-frontmatter', 'skills.files', 'skill://acme/refunds/SKILL.md: SKILL.md does not begin with a "---" line (YAML frontmatter) (skills.mdx#skill-format)'],
    ['directory-missing', 'skills.directory', 'resources/directory/read of the skill folder skill://acme/refunds got error -32601 (Method not found: resources/directory/read) (and 1 more)'],
    ['directory-not-invalid', 'skills.directory', 'resources/directory/read of the file skill://acme/refunds/SKILL.md answered with a result instead of error -32602'],
  ])('BREAK=%s fails %s', async (BREAK, id, message) => {
    const { report, exitCode } = await broken(BREAK);
    const check = report.checks.find((candidate) => candidate.id === id)!;
    expect(check).toMatchObject({ verdict: 'fail', message });
    expect(exitCode).toBe(1);
    // Only the check of the broken rule fails among the Skills checks (the listing's own rules excepted: an invalid entry is not read or got).
    expect(
      Object.entries(verdicts(report))
        .filter(([, verdict]) => verdict === 'fail')
        .map(([failed]) => failed),
    ).toEqual([id]);
  });

  it("warns of a skill over the extension's per-skill limits (a SHOULD NOT), and still reads all its files", async () => {
    const { report } = await broken('big');
    expect(report.checks.find((check) => check.id === 'skills.list')).toMatchObject({
      verdict: 'warn',
      message: 'skill://acme/refunds/SKILL.md has 520 files and 2098 bytes, over the 512 files and 16777216 bytes every host accepts (skills.mdx#limits)',
    });
    expect(report.checks.find((check) => check.id === 'skills.files')).toMatchObject({ verdict: 'pass', message: '520 files of 1 skill read, each matching its entry' });
  });

  it('fails skills/list and skills/get results without ttlMs and cacheScope on 2026-07-28', async () => {
    const { report } = await conform(['--', process.execPath, fixtureServerScript('skills-server.js')], { MODE: 'no-cache-fields' });
    expect(report.checks.find((check) => check.id === 'skills.list')).toMatchObject({
      verdict: 'fail',
      message: 'the skills/list result lacks ttlMs and cacheScope, REQUIRED on 2026-07-28 (CacheableResult)',
    });
    expect(report.checks.find((check) => check.id === 'skills.get')).toMatchObject({
      verdict: 'fail',
      message: 'the skills/get result lacks ttlMs and cacheScope, REQUIRED on 2026-07-28 (CacheableResult) (and 2 more)',
    });
  });

  it.each([
    ['stdio, 2026-07-28', ['--', process.execPath, fixtureServerScript('skills-server.js')]],
    ['stdio, 2025-11-25', ['--protocol', '2025-11-25', '--', process.execPath, fixtureServerScript('skills-server.js')]],
    ['HTTP, 2026-07-28', ['URL']],
    ['HTTP, 2025-11-25', ['--protocol', '2025-11-25', 'URL']],
  ])('passes the v2 SDK skills server (%s), directory reads included', async (_label, args) => {
    const { report, exitCode } = await conform(
      args.map((arg) => (arg === 'URL' ? http.url : arg)),
      { MODE: 'directory' },
    );
    expect(verdicts(report)).toEqual(Object.fromEntries(SKILLS_IDS.map((id) => [id, 'pass'])));
    expect(exitCode).toBe(0);
  });

  it('adds no check for a server that does not declare the extension', async () => {
    const { report } = await conform(['--', process.execPath, fixtureServerScript('v2-server.js')]);
    expect(report.checks.filter((check) => check.id.startsWith('skills.'))).toEqual([]);
  });
});
