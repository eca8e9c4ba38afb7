import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // End-to-end tests spawn processes; two workers match the 2-core CI machines.
    maxWorkers: 2,
  },
});
