import type { Command } from 'commander';
import { parseArgWords } from '../args/parse-tool-args.js';
import { defaultConfig } from '../config/build-config.js';
import { findConfigPath, type ConfigLocation } from '../config/find-config-path.js';
import { readConfigFile } from '../config/load-config.js';
import { ConfigError, ExitCode, ToolrunError, exitCodeForKind } from '../errors.js';
import { toJson } from '../output/terminal.js';
import type { CommandRunner, CliContext } from '../cli-support/cli-context.js';
import { applyCliFlags, loadCliHostConfig, resolvePackaged } from '../cli-support/load-cli-config.js';
import { openTools } from './support/open-tools.js';
import { resolveTool } from './support/resolve-tool.js';
import { buildArguments, splitToolName, type ToolArgumentOptions } from '../cli-support/tool-arguments.js';

interface ValidateOptions extends ToolArgumentOptions {
  offline?: boolean;
}

export function registerValidateCommand(program: Command, run: CommandRunner): void {
  program
    .command('validate')
    .description('check the config and every tool definition; with TOOL, check ARGS against its schema without running it')
    .argument('[tool]', 'tool name, or SERVER:TOOL')
    .argument('[args...]', 'key=value (typed by the schema) or key:=json')
    .option('--args <json>', 'arguments as JSON, @file.json, or - for stdin')
    .option('--server <name>', 'use the tool of this MCP server')
    .option('--offline', 'check the config and local tools only; start no MCP server')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun validate                                   # config + every tool definition
  $ toolrun --config home.json validate --offline      # no server started
  $ toolrun validate math_eval expression='2+2'        # prints {"expression": "2+2"}
  $ toolrun validate control_zwave_device device_name='Switch One' command=on`,
    )
    .action((toolName: string | undefined, words: string[], options: ValidateOptions) =>
      run((cli) => (toolName === undefined ? validateConfig(cli, options.offline === true) : validateCall(cli, toolName, words, options))),
    );
}

async function validateCall(cli: CliContext, toolName: string, words: string[], options: ValidateOptions): Promise<number> {
  const target = splitToolName(toolName, options.server, 'validate');
  const parsedWords = parseArgWords(words);
  const opened = await openTools(cli);
  const tool = await resolveTool(opened, target.name, target.server);
  const { executor, config } = opened;
  const args = await buildArguments(cli, tool, parsedWords, options.args, config.paramMappings);
  try {
    const prepared = await executor.prepare(tool, args);
    if (cli.globals.json) await cli.terminal.resultJson({ valid: true, tool_name: tool.definition.name, arguments: prepared.args });
    else {
      await cli.terminal.result(toJson(prepared.args));
      cli.terminal.info(`✔ arguments are valid for ${tool.qualifiedName}`);
    }
    return ExitCode.OK;
  } catch (error) {
    if (!(error instanceof ToolrunError) || !cli.globals.json) throw error;
    await cli.terminal.resultJson({ valid: false, tool_name: tool.definition.name, error: error.message, error_kind: error.kind });
    return exitCodeForKind(error.kind);
  }
}

async function validateConfig(cli: CliContext, offline: boolean): Promise<number> {
  const [{ checkConfigDeeply }, { checkInternalHandlers }] = await Promise.all([import('../assembly/check-config-deeply.js'), import('../assembly/check-internal-handlers.js')]);
  const location: ConfigLocation = cli.globals.host !== undefined ? { path: null, origin: 'default' } : findConfigPath(cli.globals.config, cli.env, cli.cwd);
  const { config, problems } =
    cli.globals.host !== undefined
      ? { config: await loadCliHostConfig(cli), problems: [] as Awaited<ReturnType<typeof readConfigFile>>['problems'] }
      : location.path === null
        ? { config: defaultConfig(cli.cwd), problems: [] }
        : await readConfigFile(location);
  if (cli.globals.host !== undefined) location.path = config.path;
  if (problems.length === 0)
    await resolvePackaged(config, cli.env).catch((error: unknown) => {
      if (!(error instanceof ConfigError)) throw error;
      problems.push({ path: error.jsonPath ?? '', message: error.detail });
    });
  problems.push(...checkConfigDeeply(config, cli.env));
  if (problems.length === 0) problems.push(...(await checkInternalHandlers(config)));
  const serverNames = Object.keys(config.servers);
  // MCP tools are checked only when the config itself is sound and servers may be started.
  let unreachable: string[] = [];
  let notStarted = new Set<string>();
  const findings: Array<{ server: string; tool: string; severity: 'error' | 'warning'; message: string; spec?: string }> = [];
  let mcpToolCount = 0;
  // A name one source takes from another (a config tool over a builtin, two servers sharing a tool) is a
  // finding of the config: reported here as warnings, the local ones even --offline, not as stray stderr lines.
  const shadowing = { local: [] as string[], servers: [] as string[] };
  let replaced = shadowing.local;
  const opened = problems.length === 0 ? await openTools(cli, { config: applyCliFlags(cli, config), onToolReplaced: (message) => replaced.push(message) }) : undefined;
  if (opened && !offline && serverNames.length > 0) {
    replaced = shadowing.servers;
    const { checkMcpTools } = await import('../mcp/check-mcp-tools.js');
    const failures = await opened.connect();
    unreachable = failures.map((failure) => failure.server);
    notStarted = new Set(failures.filter((failure) => failure.notStarted).map((failure) => failure.server));
    for (const status of opened.registry.servers.values()) {
      if (status.status !== 'connected') continue;
      mcpToolCount += status.connection.tools.length;
      findings.push(...checkMcpTools(status.connection.name, status.connection.tools, status.connection.brokenTools));
    }
  }
  const errors = findings.filter((finding) => finding.severity === 'error');
  const file = location.path ?? '(embedded default: builtin tools, no servers)';
  const exitCode = problems.length > 0 ? ExitCode.CONFIG : unreachable.length > 0 ? ExitCode.UNREACHABLE : errors.length > 0 ? ExitCode.FAILURE : ExitCode.OK;
  if (cli.globals.json) {
    await cli.terminal.resultJson({
      valid: exitCode === ExitCode.OK,
      config: location.path,
      tools: config.tools.length,
      servers: serverNames.length,
      mcp_tools: offline ? null : mcpToolCount,
      problems,
      unreachable,
      tool_findings: findings,
      shadowing: [...shadowing.local, ...shadowing.servers],
    });
    return exitCode;
  }
  const style = cli.terminal.outStyle;
  const mark = (ok: boolean) => (ok ? style.green('✔') : style.red('✖'));
  const lines = [`${mark(problems.length === 0)} config ${file}`];
  lines.push(`  ${config.tools.length} local tool${config.tools.length === 1 ? '' : 's'} in the config, ${serverNames.length} MCP server${serverNames.length === 1 ? '' : 's'}`);
  for (const problem of problems) lines.push(`  ${style.red('✖')} ${problem.path}: ${problem.message}`);
  for (const message of shadowing.local) lines.push(`  ${style.yellow('⚠')} ${message}`);
  if (!offline && problems.length === 0 && serverNames.length > 0) {
    lines.push(
      `${mark(unreachable.length === 0 && errors.length === 0)} MCP tools: ${mcpToolCount} from ${serverNames.length - unreachable.length} of ${serverNames.length} server${serverNames.length === 1 ? '' : 's'}`,
    );
    for (const server of unreachable) lines.push(`  ${style.red('✖')} ${server}: ${notStarted.has(server) ? 'not started' : 'could not be connected'} (see above)`);
    for (const finding of findings)
      lines.push(`  ${finding.severity === 'error' ? style.red('✖') : style.yellow('⚠')} ${finding.server}:${finding.tool}: ${finding.message}${finding.spec ? ` (${finding.spec})` : ''}`);
    for (const message of shadowing.servers) lines.push(`  ${style.yellow('⚠')} ${message}`);
  } else if (offline && serverNames.length > 0) lines.push('  MCP servers not started (--offline)');
  const count = problems.length + unreachable.length + errors.length;
  const warnings = findings.length - errors.length + shadowing.local.length + shadowing.servers.length;
  lines.push(
    count === 0
      ? `valid${warnings > 0 ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : ''}`
      : `${count} problem${count === 1 ? '' : 's'}${warnings > 0 ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}`,
  );
  await cli.terminal.result(lines.join('\n'));
  return exitCode;
}
