import type { Command } from 'commander';
import type { CommandRunner } from '../cli-support/cli-context.js';
import type { LockOptions } from './support/lock-run.js';

/** `toolrun lock` (SPEC §24): pin what the agent sees of each server, and notice when it changes. */
export function registerLockCommand(program: Command, run: CommandRunner): void {
  program
    .command('lock')
    .description("pin each server's identity and a hash of every tool, prompt, template and skill in toolrun.lock; --check (for CI) fails when one changed")
    .argument('[server...]', 'configured servers (default: every configured one, or with --host every server that host starts)')
    .option('--file <file>', 'the lock file (default: ./toolrun.lock)')
    .option('--check', 'compare the servers now with the lock: exit 1 on any change, 2 for a server the lock does not pin')
    .option('--update', 're-pin only the servers named, keeping the other entries of the lock')
    .option('--junit <file>', 'write the check as JUnit XML too (one testcase per changed server)')
    .option('--sarif <file>', "write the check's changes as SARIF 2.1.0 too (GitHub code scanning)")
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun lock                                   # pin every configured server: commit toolrun.lock
  $ toolrun --host claude-desktop lock             # pin the servers Claude Desktop starts, under its names
  $ toolrun lock --check                           # in CI: exit 1 when a tool was added, renamed or rewritten
  $ toolrun lock --update memory                   # approve memory's new tools: re-pin it alone

A tool's hash covers its name, title, description, inputSchema, outputSchema and annotations: a
changed description is a change to the model's instructions. Format and rules: docs/lock.md.
Exit codes: 0 written, or no change · 1 a change (--check) · 2 bad usage or lock file, or a server the lock does not pin (--check) · 3 config · 4 a server unreachable`,
    )
    .action((words: string[], options: LockOptions) =>
      run(async (cli) => {
        const { runLock } = await import('./support/lock-run.js');
        return runLock(cli, words, options);
      }),
    );
}
