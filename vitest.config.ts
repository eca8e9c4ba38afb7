import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/setup/longest-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One temporary folder for the whole run, removed after it; the most-started servers, bundled once
    // per run (test/helpers/bundled-servers.ts).
    globalSetup: ['test/setup/temp-root.ts', 'test/setup/bundle-servers.ts'],
    reporters: ['default', './test/reporters/slowest-files.ts'],
    // The longest files first, also on a fresh clone where vitest knows no durations (test/setup/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // End-to-end tests wait on the processes they start (servers, holders): three workers keep a
    // 2-core machine busy (two left it a quarter idle; the suite took 9 min instead of 7.5).
    maxWorkers: 3,
    // One worker process runs many files: no test changes module state it does not restore (runCli's
    // per-run state lives in run-environment.ts), and a fresh process per file cost ~0.5 s of CPU each.
    isolate: false,
    // The built package (runInProcess loads dist/lib/index.js) is loaded by Node itself, as a user's
    // import would: not transformed, and its chunks shared with the session holder's and workers' paths.
    server: { deps: { external: [/\/dist\//] } },
  },
});
