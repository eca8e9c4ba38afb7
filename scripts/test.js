// `npm test`: the format check, lint, type-check and build side by side (none needs another; on two
// cores this saves ~15 s over running them in a row), then the tests against the build. Stops at the
// first that fails, with its exit code; what each printed is on the terminal as it printed it.
import { spawn } from 'node:child_process';

const tool = (path) => new URL(`../node_modules/${path}`, import.meta.url).pathname;

/** Runs node with `args`; resolves to its exit code (1 when it died of a signal). */
function run(name, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.once('error', (error) => {
      process.stderr.write(`npm test: ${name} could not start: ${error.message}\n`);
      resolve(1);
    });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

const steps = [
  ['format check', [tool('prettier/bin/prettier.cjs'), '--check', '--log-level', 'warn', '**/*.{ts,js,cjs,mjs}']],
  ['lint', [tool('eslint/bin/eslint.js'), '.']],
  ['type-check', [tool('typescript/bin/tsc'), '--noEmit']],
  ['build', [new URL('build.js', import.meta.url).pathname, '--no-types']],
];
const codes = await Promise.all(steps.map(([name, args]) => run(name, args)));
const failed = steps.findIndex((_, index) => codes[index] !== 0);
if (failed >= 0) {
  process.stderr.write(`npm test: the ${steps[failed][0]} failed (exit ${codes[failed]}); the tests did not run\n`);
  process.exit(codes[failed]);
}
process.exit(await run('vitest', [tool('vitest/vitest.mjs'), 'run', ...process.argv.slice(2)]));
