import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CommandRunner, CliContext } from '../cli-support/cli-context.js';
import { DEFAULT_CONFIG_FILE, findConfigPath } from '../config/find-config-path.js';
import { ExitCode, UsageError } from '../errors.js';
import { escapeTableCell as oneLine } from '../output/escape-controls.js';
import { toolrunCommand } from '../text/quote-shell-word.js';

interface ImportOptions {
  into?: string;
  force?: boolean;
}

/** `toolrun hosts import HOST[:SCOPE] [SERVER…] [--into FILE] [--force]` (SPEC §13). */
export function registerHostsImportCommand(hosts: Command, run: CommandRunner): void {
  hosts
    .command('import')
    .description("copy a host's MCP servers into a toolrun config, as an edit that keeps its comments and layout")
    .argument('<host[:scope]>', 'claude-desktop, claude-code, cursor, vscode, windsurf, codex, gemini, zed, cline, roo, continue or opencode; :user, :project or :local for one scope')
    .argument('[servers...]', "the servers to import (default: all of the host's, merged as the host merges its files)")
    .option('--into <file>', 'the toolrun config to edit (default: --config, $TOOLRUN_CONFIG, or ./toolrun.config.json, created if missing)')
    .option('--force', 'replace a server of the same name already in the config')
    .addHelpText(
      'after',
      `
Each server is appended to "mcpServers" (created if missing); the rest of the file is left byte for
byte. A name the config already has is not replaced without --force, and then nothing is written.
What toolrun cannot carry over is named on stderr: fields it does not honour, variables only the host
can fill in (\${input:…}), disabled servers. Variables stay variables: no value is read from your
environment. Importing all, a disabled server, or one that needs a host-only variable, is skipped;
named, it is imported with "disabled": true.

Examples:
  $ toolrun hosts import cursor                          # all of Cursor's servers into ./toolrun.config.json
  $ toolrun hosts import claude-desktop github --into ~/toolrun.json
  $ toolrun hosts import vscode:project docs --force     # replace 'docs' with VS Code's project entry
  $ toolrun --config home.json hosts import codex --json`,
    )
    .action((hostOption: string, names: string[], options: ImportOptions) => run((cli) => importHostServers(cli, hostOption, names, options)));
}

async function importHostServers(cli: CliContext, hostOption: string, names: string[], options: ImportOptions): Promise<number> {
  if (cli.globals.host !== undefined) throw new UsageError(`hosts import takes the host as its first argument (${toolrunCommand('hosts', 'import', cli.globals.host)}), not --host`);
  // Loaded here: `hosts import` is rare, and the readers bring the YAML and TOML parsers, the edit jsonc-parser.
  const [{ readHostReports, mergeHostServers }, { planImport }, { addServersToConfigText }, { readImportTarget, writeImportTarget }] = await Promise.all([
    import('../hosts/host-config.js'),
    import('../hosts/plan-import.js'),
    import('../hosts/import-into-config.js'),
    import('../hosts/import-target.js'),
  ]);
  const path = importTargetPath(cli, options.into);
  const { host, reports, broken } = await readHostReports(hostOption, cli.env, cli.cwd);
  for (const report of broken) cli.terminal.warn(`${host} config ${report.path} set aside: ${report.problems[0]} (nothing imported from it)`);
  const plan = planImport(host, mergeHostServers(reports), names, cli.env, cli.cwd);
  const target = readImportTarget(path);
  const edit = addServersToConfigText(target.text, plan.servers, { force: options.force === true, file: path });
  if ('conflicts' in edit) {
    const [first, ...more] = edit.conflicts;
    const what = more.length === 0 ? `server '${first}' is` : `servers ${edit.conflicts.map((name) => `'${name}'`).join(', ')} are`;
    throw new UsageError(`${what} already in ${path}; nothing was written. Add --force to replace ${more.length === 0 ? 'it' : 'them'}`);
  }
  if (plan.servers.length > 0) {
    // A new config is as private as the host files its entries came from (~/.claude.json is 0600,
    // and an entry's env may hold a token written in it literally).
    const mode = [...new Set(plan.servers.map((server) => server.from))].reduce((bits, from) => bits & readWriteBits(from), 0o666);
    writeImportTarget(target, edit.text, mode);
  }
  const replaced = new Set(edit.replaced);
  if (cli.globals.json) {
    await cli.terminal.resultJson({
      host,
      into: path,
      created: !target.exists && plan.servers.length > 0,
      imported: plan.servers.map((server) => ({ name: server.name, from: server.from, replaced: replaced.has(server.name), disabled: server.disabled, notes: server.notes })),
      skipped: plan.skipped,
    });
  }
  // Notes on stderr (with --json too, for the person watching): what did not come across, and why.
  if (!target.exists && plan.servers.length > 0) cli.terminal.info(`created ${path}`);
  for (const server of plan.servers) for (const note of server.notes) cli.terminal.warn(`${server.name}: ${note}`);
  for (const skipped of plan.skipped) cli.terminal.warn(`${skipped.name} not imported (${skipped.from}): ${skipped.reason}`);
  if (plan.servers.length === 0) {
    cli.terminal.warn(`nothing imported from ${host}; ${path} is unchanged`);
    return ExitCode.OK;
  }
  if (!cli.globals.json) {
    const lines = plan.servers.map((server) => oneLine(`imported ${server.name} from ${host} (${server.from}) into ${path}${replaced.has(server.name) ? ' (replaced the entry there)' : ''}`));
    await cli.terminal.result(lines.join('\n'));
  }
  return ExitCode.OK;
}

/**
 * The file to edit: `--into`, else the config toolrun would read (global `--config`,
 * `$TOOLRUN_CONFIG`, `./toolrun.config.json`), which need not exist yet. `--into` and `--config`
 * naming two files is a usage error: which one was meant cannot be guessed.
 */
function importTargetPath(cli: CliContext, into: string | undefined): string {
  const config = cli.globals.config;
  if (into !== undefined && config !== undefined && resolve(cli.cwd, into) !== resolve(cli.cwd, config)) {
    throw new UsageError(`--into ${into} and --config ${config} name two files; give one (hosts import edits the config it names)`);
  }
  if (into !== undefined) {
    if (into === '') throw new UsageError('--into needs a file name');
    return resolve(cli.cwd, into);
  }
  return findConfigPath(config, cli.env, cli.cwd).path ?? resolve(cli.cwd, DEFAULT_CONFIG_FILE);
}

/** A host file's permission bits for reading and writing; all of them when it cannot be read now. */
function readWriteBits(path: string): number {
  try {
    return statSync(path).mode & 0o666;
  } catch {
    return 0o666;
  }
}
