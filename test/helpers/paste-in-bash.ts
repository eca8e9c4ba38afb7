import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-config.js';

/** What the stub `toolrun` prints before its arguments: their count, then each one ended by a NUL byte. */
const ARGV_MARK = 'toolrun-argv:';

/**
 * What pasting a suggested command into bash does: `bash -c COMMAND` in an empty folder, with a
 * stub `toolrun` first on PATH that prints the arguments it was given. Returns those arguments (of its
 * first run; undefined when the stub never ran) and the files the command left in the folder (a
 * `touch x` smuggled into a suggestion shows up there).
 */
export function pasteInBash(command: string): { argv: string[] | undefined; created: string[] } {
  const root = tempDir();
  const bin = join(root, 'bin');
  const cwd = join(root, 'cwd');
  mkdirSync(bin);
  mkdirSync(cwd);
  // A shell script, not a node one: ~0.15 s of CPU less a paste. NUL ends each argument, the one byte
  // no argument can hold, so any word (quotes, line breaks, any Unicode) comes back exactly.
  writeFileSync(join(bin, 'toolrun'), `#!/bin/sh\nprintf '${ARGV_MARK}%s:' "$#"\n[ "$#" -eq 0 ] || printf '%s\\0' "$@"\n`);
  chmodSync(join(bin, 'toolrun'), 0o755);
  let stdout: string;
  try {
    stdout = execFileSync('bash', ['--norc', '--noprofile', '-c', command], {
      cwd,
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: root },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    });
  } catch (error) {
    stdout = String((error as { stdout?: string }).stdout ?? '');
  }
  return { argv: stubArguments(stdout), created: readdirSync(cwd) };
}

/** The arguments of the stub's first run in `stdout`, or undefined when it never ran. */
function stubArguments(stdout: string): string[] | undefined {
  const at = stdout.indexOf(ARGV_MARK);
  if (at === -1) return undefined;
  const rest = stdout.slice(at + ARGV_MARK.length);
  const colon = rest.indexOf(':');
  return rest
    .slice(colon + 1)
    .split('\0')
    .slice(0, Number(rest.slice(0, colon)));
}
