import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { findServerProcesses, readCommandLine, readEnvironmentVariable } from '../../process/process-tree.js';

/**
 * Servers started through a package runner (`npx`, `npm exec`, `pnpm dlx`, `bunx`, `uvx`) first
 * download and install the package: on a cold cache that takes longer than any connect timeout,
 * and killing the runner then leaves its cache half-written for every client on the machine (the
 * next `npx` run fails with "Invalid Version"). So toolrun tells the install phase from the server
 * running, from the process tree: npm runs the package's bin as a child whose environment has
 * `npm_lifecycle_event=npx`; the other runners start (or exec into) the server only once installed.
 */

export type RunnerKind = 'npm' | 'pnpm' | 'bun' | 'uv';

export interface PackageRunner {
  kind: RunnerKind;
  /** How the user calls it, for messages: "npx", "pnpm dlx", "bunx", "uvx". */
  label: string;
  /** The package as written in args, version included ("mongodb-mcp-server@latest"). */
  packageSpec: string;
}

export type RunnerPhase = 'installing' | 'running';

// Runner flags that take a value: the value is not the package.
const FLAGS_WITH_VALUE = new Set(['-p', '--package', '-c', '--call', '--registry', '--cache', '--userconfig', '--from', '--with', '--python', '-w', '--workspace', '--prefix']);

/** The runner and package of a server entry, or undefined when the command is not a package runner. */
export function detectPackageRunner(command: string, args: string[]): PackageRunner | undefined {
  const name = basename(command).replace(/\.(cmd|exe)$/i, '');
  let kind: RunnerKind | undefined;
  let label = name;
  let rest = args;
  if (name === 'npx') kind = 'npm';
  else if (name === 'npm' && (args[0] === 'exec' || args[0] === 'x')) [kind, label, rest] = ['npm', `npm ${args[0]}`, args.slice(1)];
  else if (name === 'pnpx') kind = 'pnpm';
  else if (name === 'pnpm' && args[0] === 'dlx') [kind, label, rest] = ['pnpm', 'pnpm dlx', args.slice(1)];
  else if (name === 'bunx') kind = 'bun';
  else if (name === 'bun' && args[0] === 'x') [kind, label, rest] = ['bun', 'bun x', args.slice(1)];
  else if (name === 'uvx') kind = 'uv';
  else if (name === 'uv' && args[0] === 'tool' && args[1] === 'run') [kind, label, rest] = ['uv', 'uv tool run', args.slice(2)];
  if (!kind) return undefined;
  let packageSpec: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--') {
      packageSpec ??= rest[i + 1];
      break;
    }
    const [flag, inlineValue] = arg.startsWith('--') ? arg.split('=', 2) : [arg, undefined];
    if ((flag === '-p' || flag === '--package' || flag === '--from') && (inlineValue ?? rest[i + 1])) {
      packageSpec = inlineValue ?? rest[i + 1];
      break;
    }
    if (FLAGS_WITH_VALUE.has(flag!) && inlineValue === undefined) i++;
    else if (!arg.startsWith('-')) {
      packageSpec = arg;
      break;
    }
  }
  return packageSpec ? { kind, label, packageSpec } : undefined;
}

/** The package's name without its version: "@scope/name@1.2" → "@scope/name". */
export function packageNameOf(spec: string): string {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return at > 0 ? spec.slice(0, at) : spec;
}

/** Whether the runner (pid `rootPid`) is still installing, or has started the server. */
export function readRunnerPhase(runner: PackageRunner, rootPid: number): RunnerPhase {
  const descendants = findServerProcesses(rootPid);
  if (runner.kind === 'npm') return descendants.some((child) => readEnvironmentVariable(child.pid, 'npm_lifecycle_event') === 'npx') ? 'running' : 'installing';
  // pnpm, bun and uv install in their own process, then spawn the server (or exec into it).
  if (descendants.length > 0) return 'running';
  const stillTheRunner = new RegExp(`\\b(${runner.kind}|${runner.label.split(' ')[0]})\\b`).test(readCommandLine(rootPid));
  return stillTheRunner ? 'installing' : 'running';
}

/** npm's npx cache folder for a server's environment: `npm_config_cache` or ~/.npm, then `_npx`. */
export function npxCacheFolder(env: NodeJS.ProcessEnv): string {
  const cache = env.npm_config_cache || env.NPM_CONFIG_CACHE || join(env.HOME || homedir(), '.npm');
  return join(cache, '_npx');
}

/** The entries of the npx cache before a spawn, to tell afterwards which one this install created. */
export function listNpxCache(folder: string): Set<string> {
  try {
    return new Set(readdirSync(folder));
  } catch {
    return new Set();
  }
}

/** Whether an npx cache entry is (the start of) an install of `packageName`. */
function isInstallOf(path: string, packageName: string): boolean {
  try {
    if (!statSync(path).isDirectory()) return false;
    // npm 11 unpacks into node_modules first and writes package.json last; older npms the other way round.
    if (existsSync(join(path, 'node_modules', packageName))) return true;
    const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    return Boolean(manifest.dependencies && packageName in manifest.dependencies);
  } catch {
    return false;
  }
}

/**
 * Removes what an install that toolrun had to end left in the npx cache: the entries created since
 * `before` for this package. Entries that existed before, or belong to other packages (another npx
 * run at the same time), are left alone. Returns the folders removed.
 */
export function removeHalfInstalledPackage(folder: string, before: Set<string>, packageName: string): string[] {
  const removed: string[] = [];
  for (const entry of listNpxCache(folder)) {
    if (before.has(entry)) continue;
    const path = join(folder, entry);
    if (!isInstallOf(path, packageName)) continue;
    rmSync(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}
