import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-config.js';

/**
 * What pasting a suggested command into bash does: `bash -c COMMAND` in an empty folder, with a
 * stub `toolrun` first on PATH that prints its arguments as JSON. Returns those arguments (undefined
 * when the stub never ran) and the files the command left in the folder (a `touch x` smuggled into
 * a suggestion shows up there).
 */
export function pasteInBash(command: string): { argv: string[] | undefined; created: string[] } {
  const root = tempDir();
  const bin = join(root, 'bin');
  const cwd = join(root, 'cwd');
  mkdirSync(bin);
  mkdirSync(cwd);
  writeFileSync(join(bin, 'toolrun'), `#!${process.execPath}\nconsole.log(JSON.stringify(process.argv.slice(2)));\n`);
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
  const line = stdout.split('\n').find((text) => text.startsWith('['));
  return { argv: line ? (JSON.parse(line) as string[]) : undefined, created: readdirSync(cwd) };
}
