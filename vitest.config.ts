import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/reporters/slowest-files.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // End-to-end tests wait on the processes they start (servers, holders): three workers keep a
    // 2-core machine busy (two left it a quarter idle; the suite took 9 min instead of 7.5).
    maxWorkers: 3,
    // The built package (runInProcess loads dist/lib/index.js) is loaded by Node itself, as a user's
    // import would: not transformed, and its chunks shared with the session holder's and workers' paths.
    server: { deps: { external: [/\/dist\//] } },
  },
});
