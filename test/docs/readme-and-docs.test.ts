import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-toolrun.js';

/**
 * Issue #32 item 10: the README is a short front page (at most 300 lines: what toolrun is, the quick
 * start, common tasks, exit codes, links) and each area's manual is a page in docs/. These checks keep
 * it so: a README that grows back, a page nobody links to, or a link or #anchor that no longer leads
 * anywhere (a heading renamed, a page moved) fails here instead of in a reader's browser.
 */

const DOCS = join(ROOT, 'docs');
const docsPages = () =>
  readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .sort();
/** README.md and every docs page, as paths relative to the repository. */
const markdownFiles = () => ['README.md', ...docsPages().map((name) => `docs/${name}`)];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The text without its fenced code blocks (their `#` lines are comments, not headings; their brackets are code). */
const withoutCodeBlocks = (text: string) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to `-`; a repeated one gets `-1`, `-2`… */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of withoutCodeBlocks(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const heading = match[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** The targets of the markdown links of a text, outside code blocks and code spans. */
const links = (text: string) =>
  [
    ...withoutCodeBlocks(text)
      .replace(/`[^`]*`/g, '')
      .matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g),
  ].map((match) => match[1]!);

/** Every relative link of one file that does not lead to an existing file or heading, with the reason. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const target of links(read(file))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …: not this repository's
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? join(ROOT, file) : join(ROOT, dirname(file), decodeURI(path));
    if (!existsSync(resolved)) {
      broken.push(`${file}: ${target} (no file ${relative(ROOT, resolved)})`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!statSync(resolved).isFile() || !resolved.endsWith('.md')) {
      broken.push(`${file}: ${target} (an anchor into something that is not a markdown file)`);
    } else if (!anchors(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))) {
      broken.push(`${file}: ${target} (no heading #${anchor} in ${relative(ROOT, resolved)})`);
    }
  }
  return broken;
}

describe('README.md and docs/', () => {
  it('the README has at most 300 lines', () => {
    expect(read('README.md').replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(300);
  });

  it("the README's first code block sets up, runs a tool and runs the tests", () => {
    const first = read('README.md').match(/^```[^\n]*\n([\s\S]*?)^```/m)?.[1] ?? '';
    expect(first).toContain('npm install && npx toolrun exec get_current_datetime');
    expect(first).toContain('npm test');
  });

  it('the README says what npm link needs', () => {
    const readme = read('README.md');
    expect(readme).toContain('npm link');
    expect(readme).toContain('NPM_CONFIG_PREFIX');
  });

  it('every docs page is linked from the README', () => {
    const readmeLinks = new Set(links(read('README.md')).map((target) => target.split('#')[0]));
    expect(docsPages().length).toBeGreaterThan(0);
    expect(docsPages().filter((name) => !readmeLinks.has(`docs/${name}`))).toEqual([]);
  });

  it('every docs page starts with a title and links back to the README', () => {
    for (const name of docsPages()) {
      const text = read(`docs/${name}`);
      expect(text, name).toMatch(/^# \S/);
      expect(links(text), name).toContain('../README.md');
    }
  });

  it('every relative link and #anchor in the README and docs leads to an existing file and heading', () => {
    expect(markdownFiles().flatMap(brokenLinks)).toEqual([]);
  });

  it('no page cites the specification by a section number of its own ("SPEC §")', () => {
    expect(markdownFiles().filter((file) => read(file).includes('SPEC §'))).toEqual([]);
  });

  // Issue #47 item 13: toolrun is not on the npm registry; `npx toolrun` runs only a copy the project installed.
  it('every CI example that runs npx toolrun installs it first and links to how; none fetches toolrun from the registry', () => {
    const problems: string[] = [];
    for (const file of markdownFiles()) {
      const text = read(file);
      const linksToInstall = links(text).some((target) => target.endsWith('#installing-toolrun-in-a-project'));
      for (const [, block] of text.matchAll(/^[ \t]*```ya?ml[^\n]*\n([\s\S]*?)^[ \t]*```/gm)) {
        const run = block!.indexOf('npx toolrun');
        if (run === -1) continue;
        const install = block!.search(/\bnpm (ci|install)\b/);
        if (install === -1 || install > run) problems.push(`${file}: a workflow runs npx toolrun without installing it first (npm ci)`);
        if (!linksToInstall) problems.push(`${file}: shows npx toolrun in CI without a link to ci.md#installing-toolrun-in-a-project`);
      }
      for (const [command] of text.matchAll(/\bnpx (?:-y|--yes) toolrun\b|\bnpm (?:i|install|add)(?: --?[\w-]+(?:=\S+)?)* toolrun(?:@[\w.^~-]+)?(?=[\s`]|$)/gm))
        problems.push(`${file}: ${command} (toolrun is not on the npm registry)`);
    }
    expect(problems).toEqual([]);
  });

  it('the anchor rule matches GitHub for the headings these pages use', () => {
    expect([...anchors('## `mcp doctor`\n## API snapshots and breaking changes: `mcp snapshot`, `mcp diff`\n## Tool results\n## Tool results\n```\n# not a heading\n```\n')]).toEqual([
      'mcp-doctor',
      'api-snapshots-and-breaking-changes-mcp-snapshot-mcp-diff',
      'tool-results',
      'tool-results-1',
    ]);
  });
});
