// The order vitest starts the test files in. Its own order runs the longest files first when its
// results cache (node_modules/.vite/vitest) knows their durations, and the largest files first when it
// does not, as on a fresh clone: CI's case every time. In size order three of the heaviest files
// (session, mcp-exec, test-command) start together, beside the format check and lint; measured on the
// 2-core machine as CI runs it (interleaved), size order took 5:36 and 5:54, this order 5:03 and 5:00,
// ~70 s of CPU less. So, with no duration known, the files measured as the longest go first, in that
// order, and the rest follow in vitest's order. A file renamed or gone from this list only costs
// time, never a test (test/scripts/longest-first.test.ts keeps it true).
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The longest files, longest first, as measured in a full run (npm test, 2 cores, 2026-11-26). */
export const LONGEST_FILES = [
  // Packs and installs toolrun into an empty project (~90 s, mostly npm): started first, it waits beside the rest.
  'test/e2e/package-install.test.ts',
  'test/e2e/session.test.ts',
  'test/e2e/documented-examples.test.ts',
  'test/e2e/npx.test.ts',
  'test/e2e/test-command.test.ts',
  'test/e2e/mcp-exec.test.ts',
  'test/e2e/hostile-input.test.ts',
  'test/e2e/mcp-conform.test.ts',
  'test/e2e/tasks.test.ts',
  'test/e2e/sampling.test.ts',
  'test/e2e/protocol-eras.test.ts',
  // ~15 s alone: 40 tests, most starting the v2 SDK skills fixture (twice for each SkillsClient comparison).
  'test/e2e/skills.test.ts',
  'test/e2e/serve.test.ts',
  'test/e2e/diagnosis.test.ts',
  'test/e2e/shell.test.ts',
  'test/e2e/github-action.test.ts',
  'test/e2e/resources-watch.test.ts',
  'test/e2e/completion.test.ts',
  'test/e2e/cache-trust.test.ts',
  'test/e2e/mcp-mock.test.ts',
  // ~16 s alone (issue 49): the official App servers start from their 2-4 MB bundles, some several times.
  'test/e2e/mcp-apps.test.ts',
];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const key = (file: TestSpecification) => relative(root, file.moduleId);
    if (files.some((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${key(file)}`))) return sorted;
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FILES.indexOf(key(file));
      return at === -1 ? LONGEST_FILES.length : at;
    };
    // Array.prototype.sort is stable: the files not listed keep vitest's order among themselves.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
