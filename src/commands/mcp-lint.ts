import type { Command } from 'commander';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import { UsageError } from '../errors.js';
import { parsePositiveInteger } from '../cli-support/parse-number-option.js';
import { hasDoubleDash } from '../cli-support/server-on-command-line.js';
import type { LintOptions } from './support/lint-run.js';

export const LINT_EXIT_CODES = 'Exit codes: 0 no error-level finding · 1 an error-level finding or over a budget · 2 bad usage or file · 3 config · 4 a server unreachable';

/** `toolrun mcp lint` (SPEC §19): how servers' tools land in each host and model, and what they cost in tokens. */
export function registerMcpLintCommand(mcp: Command, run: CommandRunner): void {
  const command = mcp
    .command('lint')
    .description('judge tool definitions against what each host and model accepts (names, counts, schema subsets) and count the tokens they cost, offline from a snapshot or from live servers')
    .argument('[server...]', 'configured servers linted together (default: every configured one), a URL, or -- COMMAND [ARGS...]');
  addLintOptions(command)
    .option(
      '--snapshot <file...>',
      'lint a snapshot file (mcp snapshot), a tools/list result ({"tools": [...]}, as the Inspector CLI prints it) or a recording instead of a live server; repeat for several',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun mcp lint --snapshot api.json                        # offline: no server starts
  $ toolrun --config home.json mcp lint zwave --target openai --target gemini
  $ toolrun mcp lint --max-tokens 8000 --max-tools 40 -- node server.js
  $ toolrun mcp lint --snapshot api.json --fix --target gemini  # the schemas as Gemini needs them
  $ toolrun mcp lint --snapshot api.json --sarif lint.sarif     # for GitHub code scanning
  $ toolrun hosts lint cursor                                   # all of Cursor's servers together

Targets (--target, default all): anthropic, openai, gemini, gemini-cli, cursor, vscode, windsurf, codex. A target is a versioned rule table (openai@1):
pin one in CI. --target apps (named only) checks live servers' MCP Apps as mcp apps does (docs/apps.md). Rules for every target are reported as mcp/… (missing descriptions, hidden text).
Tokens: o200k_base (OpenAI's encoding) over each definition as the first target's API takes it:
exact for OpenAI, an estimate for the others. Rules and sources: docs/lint.md.
${LINT_EXIT_CODES}`,
    )
    .action((words: string[], options: LintOptions, command_: Command) => run((cli) => lintCommand(cli, words, hasDoubleDash(command_), options)));
}

/** The options `mcp lint` and `hosts lint` share. */
export function addLintOptions(command: Command): Command {
  return command
    .option('--target <name...>', 'judge for these targets only (NAME or NAME@VERSION; repeat or list them)')
    .option('--max-tokens <n>', 'fail when the tool definitions cost more tokens than this in all', parsePositiveInteger)
    .option('--max-tools <n>', 'fail when there are more tools than this in all', parsePositiveInteger)
    .option('--sarif <file>', 'also write the findings as SARIF 2.1.0 (GitHub code scanning)')
    .option('--junit <file>', 'also write a JUnit XML report (one testsuite per target, one testcase per tool)')
    .option('--fix', "print each tool's inputSchema as the one --target needs it (the server is not changed)")
    .option('--no-tokens', 'skip the token count (no tokenizer loaded)');
}

async function lintCommand(cli: CliContext, words: string[], dashed: boolean, options: LintOptions): Promise<number> {
  const { prepareLint, runLint } = await import('./support/lint-run.js');
  const prepared = prepareLint(cli, options);
  if (options.snapshot?.length && words.length > 0) throw new UsageError('lint either --snapshot files or servers, not both in one run');
  return runLint(cli, prepared, options.snapshot?.length ? { snapshots: options.snapshot } : { servers: words, dashed });
}
