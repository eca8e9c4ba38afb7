import type { Command } from 'commander';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import { UsageError } from '../errors.js';
import type { LintOptions } from './support/lint-run.js';
import { addLintOptions, LINT_EXIT_CODES } from './mcp-lint.js';
import { applyCliFlags } from '../cli-support/load-cli-config.js';
import { validConfigMemo } from '../cache/valid-configs.js';

/**
 * The rule tables a host's tools are judged by: its own where toolrun has one, else the model APIs
 * its users pick from (Zed, Cline, Roo, Continue and opencode pass tools to any provider's model).
 */
const HOST_TARGETS: Record<string, string[]> = {
  'claude-desktop': ['anthropic'],
  'claude-code': ['anthropic'],
  cursor: ['cursor'],
  vscode: ['vscode'],
  windsurf: ['windsurf'],
  codex: ['codex'],
  gemini: ['gemini-cli'],
};
const MODEL_TARGETS = ['anthropic', 'openai', 'gemini'];

/** `toolrun hosts lint HOST` (SPEC §19): all of a host's servers together, as the host loads them. */
export function registerHostsLintCommand(hosts: Command, run: CommandRunner): void {
  const command = hosts
    .command('lint')
    .description("lint all of a host's MCP servers together, as the host loads them: its tool cap, names that collide, its schema rules, and the tokens of the whole set")
    .argument('<host[:scope]>', 'claude-desktop, claude-code, cursor, vscode, windsurf, codex, gemini, zed, cline, roo, continue or opencode; :user, :project or :local for one scope');
  addLintOptions(command)
    .addHelpText(
      'after',
      `
Every server the host would start is started (a server the host was told not to trust is not), its
tools listed, and the set judged by the host's rule table: ${Object.entries(HOST_TARGETS)
        .map(([host, targets]) => `${host} → ${targets.join(', ')}`)
        .join('; ')}; other hosts → ${MODEL_TARGETS.join(', ')}. --target overrides.

Examples:
  $ toolrun hosts lint cursor
  $ toolrun hosts lint claude-code:project --max-tokens 20000
  $ toolrun hosts lint vscode --json | jq '.tokens.total'
${LINT_EXIT_CODES}`,
    )
    .action((hostOption: string, options: LintOptions) => run((cli) => lintHost(cli, hostOption, options)));
}

async function lintHost(cli: CliContext, hostOption: string, options: LintOptions): Promise<number> {
  if (cli.globals.host !== undefined || cli.globals.config !== undefined) throw new UsageError('hosts lint takes the host as its argument: drop --host and --config');
  const { loadHostConfig, parseHostOption } = await import('../hosts/host-config.js');
  const { host } = parseHostOption(hostOption, 'hosts lint');
  const { prepareLint, runLint } = await import('./support/lint-run.js');
  const prepared = prepareLint(cli, options, HOST_TARGETS[host] ?? MODEL_TARGETS);
  const config = applyCliFlags(
    cli,
    await loadHostConfig(hostOption, cli.env, cli.cwd, {
      validConfigs: cli.globals.cache ? validConfigMemo(cli.env, (note) => cli.terminal.verbose(note)) : undefined,
      terminalEnv: cli.globals.terminalEnv,
    }),
  );
  for (const note of config.hostNotes ?? []) cli.terminal.warn(note);
  if (Object.keys(config.servers).length === 0) throw new UsageError(`${hostOption} has no MCP servers configured`);
  return runLint(cli, prepared, { servers: [], dashed: false, config });
}
