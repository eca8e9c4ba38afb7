import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * After a run, the ten slowest test files (wall time of their tests and hooks), so that a file that
 * grows past its share of the suite's budget (6 minutes on two cores) is seen the day it does.
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    if (testModules.length < 10) return;
    const slowest = testModules
      .map((module) => ({ file: relative(process.cwd(), module.moduleId), ms: module.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    const lines = slowest.map(({ file, ms }) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`);
    process.stdout.write(`\nThe ten slowest test files:\n${lines.join('\n')}\n`);
  }
}
