import type { Command } from 'commander';
import { parseArgWords } from '../args/parse-tool-args.js';
import { ExitCode, ToolrunError, exitCodeForKind } from '../errors.js';
import { toJson } from '../output/terminal.js';
import type { CommandRunner, CliContext } from './cli-context.js';
import { openTools } from './open-tools.js';
import { buildArguments, splitToolName, type ToolArgumentOptions } from './tool-arguments.js';

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
      run((cli) => (toolName === undefined ? validateConfig(cli) : validateCall(cli, toolName, words, options))),
    );
}

async function validateCall(cli: CliContext, toolName: string, words: string[], options: ValidateOptions): Promise<number> {
  const target = splitToolName(toolName, options.server);
  const parsedWords = parseArgWords(words);
  const { registry, executor, config } = await openTools(cli);
  const tool = registry.get(target.name, target.server);
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

async function validateConfig(cli: CliContext): Promise<number> {
  const [{ findConfigPath, readConfigFile, checkConfig }, { checkConfigDeeply }] = await Promise.all([import('../engine.js'), import('../config/check-config-deeply.js')]);
  const location = findConfigPath(cli.globals.config, cli.env, cli.cwd);
  const { config, problems } = location.path === null ? checkConfig({}, null, cli.cwd) : await readConfigFile(location);
  problems.push(...checkConfigDeeply(config, cli.env));
  const file = location.path ?? '(embedded default: builtin tools, no servers)';
  const toolCount = config.tools.length;
  const serverCount = Object.keys(config.servers).length;
  if (cli.globals.json) {
    await cli.terminal.resultJson({ valid: problems.length === 0, config: location.path, tools: toolCount, servers: serverCount, problems });
  } else {
    const style = cli.terminal.outStyle;
    const lines = [`${problems.length === 0 ? style.green('✔') : style.red('✖')} config ${file}`];
    lines.push(`  ${toolCount} local tool${toolCount === 1 ? '' : 's'} in the config, ${serverCount} MCP server${serverCount === 1 ? '' : 's'}`);
    for (const problem of problems) lines.push(`  ${style.red('✖')} ${problem.path}: ${problem.message}`);
    lines.push(problems.length === 0 ? 'valid' : `${problems.length} problem${problems.length === 1 ? '' : 's'}`);
    await cli.terminal.result(lines.join('\n'));
  }
  return problems.length === 0 ? ExitCode.OK : ExitCode.CONFIG;
}
