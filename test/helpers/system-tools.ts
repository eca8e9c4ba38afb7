import { spawnSync } from 'node:child_process';

// Tools the suite uses that `npm ci` cannot bring (Debian packages .ci/run installs). A fresh
// machine with only Node skips the tests that need one, and says once on stderr why.

const announced = new Set<string>();

/**
 * Whether `name` is on PATH; when it is not, one `[skip]` line on stderr naming what did not run
 * and the package that brings it.
 */
export function hasSystemTool(name: string, what: string, debianPackage = name): boolean {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() !== '';
  if (!found && !announced.has(`${name}\0${what}`)) {
    announced.add(`${name}\0${what}`);
    process.stderr.write(`[skip] ${what}: ${name} is not installed (.ci/run installs it: apt-get install ${debianPackage})\n`);
  }
  return found;
}
