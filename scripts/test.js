// `npm test`: the build, then the tests against it; the format check, lint and type-check run beside
// both (none needs another, and the tests leave part of two cores idle while they wait on the
// processes they start: the checks fill it, ~25 s saved over running them first). A build that fails
// stops everything at once; otherwise every step runs to its end, each printing as it goes, and the
// exit code is the first failing step's, named on the last line.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { builtFrom } from './build-inputs.js';

const tool = (path) => new URL(`../node_modules/${path}`, import.meta.url).pathname;

/** Runs node with `args` (`background`: at a low CPU priority; `env`: in place of this one's); resolves to its exit code (1 when it died of a signal). */
function run(name, args, { background = false, env = process.env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit', env });
    if (background && child.pid !== undefined) {
      try {
        setPriority(child.pid, 15);
      } catch {
        // Not allowed here: it runs at the normal priority, only slower to finish.
      }
    }
    child.once('error', (error) => {
      process.stderr.write(`npm test: ${name} could not start: ${error.message}\n`);
      resolve(1);
    });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

// dist/ already built from exactly these sources (by `npm ci`'s prepare, or the last run) is not built
// again; and when that build emitted the type declarations, tsc checked these very sources then (a
// type error fails the build: scripts/build-inputs.js), so the type-check is not run twice.
const dist = builtFrom(fileURLToPath(new URL('..', import.meta.url)));

// Each check keeps what it learnt of unchanged files in node_modules/.cache (keyed by their content
// and the check's own options), so a second run re-checks only what changed: ~45 s of CPU → ~8 s,
// taken from the tests' two cores. A clean clone (CI) has no cache and checks everything.
const cache = (name) => new URL(`../node_modules/.cache/toolrun-checks/${name}`, import.meta.url).pathname;
const checks = [
  ['format check', [tool('prettier/bin/prettier.cjs'), '--check', '--log-level', 'warn', '--cache', '--cache-location', cache('prettier'), '**/*.{ts,js,cjs,mjs}']],
  ['lint', [tool('eslint/bin/eslint.js'), '--cache', '--cache-strategy', 'content', '--cache-location', cache('eslint'), '.']],
  ['type-check', [tool('typescript/bin/tsc'), '--noEmit', '--incremental', '--tsBuildInfoFile', cache('tsc.tsbuildinfo')]],
].filter(([name]) => name !== 'type-check' || !dist.typeChecked);
if (dist.typeChecked) process.stderr.write('npm test: dist/ was built with its type declarations from these sources, so they type-check; not type-checking again\n');
// At a low priority: the build and the tests come first, the checks take the CPU they leave.
const checking = checks.map(([name, args]) => run(name, args, { background: true }).then((code) => ({ name, code })));

const built = dist.current
  ? (process.stderr.write('npm test: dist/ is already built from these sources; not building it again (`npm run build` forces it)\n'), 0)
  : await run('build', [new URL('build.js', import.meta.url).pathname, '--no-types']);
if (built !== 0) {
  process.stderr.write(`npm test: the build failed (exit ${built}); the tests did not run\n`);
  process.exit(built);
}
// The tests start ~1,200 node processes (toolrun, holders, servers). Node 20 given NODE_EXTRA_CA_CERTS
// loads those certificates, and its bundled root store with them, as it starts, TLS used or not
// (nodejs/node#40524, nodejs/node#44448): ~0.06 s of CPU a start on a 2-core machine (`node -e 0`:
// 0.15 → 0.08 s), ~60 s of the suite's. No test makes a TLS connection (the servers are on stdio or
// loopback HTTP, offline), so the tests run without it; the build and the checks keep it.
const { NODE_EXTRA_CA_CERTS: _unusedByTests, ...testEnv } = process.env;
const tested = run('vitest', [tool('vitest/vitest.mjs'), 'run', ...process.argv.slice(2)], { env: testEnv }).then((code) => ({ name: 'tests', code }));
const failed = (await Promise.all([...checking, tested])).find(({ code }) => code !== 0);
if (failed) process.stderr.write(`npm test: the ${failed.name} failed (exit ${failed.code})\n`);
process.exit(failed?.code ?? 0);
