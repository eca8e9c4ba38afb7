import type { Command } from 'commander';
import { parseArgWords } from '../args/parse-tool-args.js';
import { exitCodeForKind, ExitCode, ToolrunError, describeThrown } from '../errors.js';
import type { ToolEnvelope } from '../executor/envelope.js';
import { formatEnvelopeFooter, formatResult } from '../output/format-result.js';
import { toJson } from '../output/terminal.js';
import type { CommandRunner } from './cli-context.js';
import { openTools } from './open-tools.js';
import { resolveTool } from './resolve-tool.js';
import { buildArguments, splitToolName, type ToolArgumentOptions } from './tool-arguments.js';

interface ExecOptions extends ToolArgumentOptions {
  raw?: boolean;
}

export function registerExecCommand(program: Command, run: CommandRunner): void {
  program
    .command('exec')
    .description('validate arguments, run a tool, print its result')
    .argument('<tool>', 'tool name, or SERVER:TOOL')
    .argument('[args...]', 'key=value (typed by the schema) or key:=json')
    .option('--args <json>', "arguments as JSON, @file.json, or - for stdin (key=value words are merged over it)")
    .option('--server <name>', 'use the tool of this MCP server, and start only that server')
    .option('--no-validate', 'send the arguments without checking them against the schema')
    .option('--raw', "print the tool's raw MCP result (content, structuredContent, isError)")
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun exec get_current_datetime
  $ toolrun exec get_current_datetime timezone=Asia/Tokyo
  $ toolrun exec math_eval expression='2^10 / 4'
  $ toolrun exec echo count:=3 tags='["a","b"]'
  $ echo '{"expression":"sqrt(2)"}' | toolrun exec math_eval --args -
  $ toolrun --json exec math_eval expression='2+2'   # {"success":true,"result":{"result":4},...}`,
    )
    .action((toolName: string, words: string[], options: ExecOptions) =>
      run(async (cli) => {
        const startedAt = process.hrtime.bigint();
        const target = splitToolName(toolName, options.server);
        let envelope: ToolEnvelope;
        try {
          const parsedWords = parseArgWords(words);
          const opened = await openTools(cli, { likelyTool: target.server ? undefined : target.name });
          const tool = await resolveTool(opened, target.name, target.server);
          const args = await buildArguments(cli, tool, parsedWords, options.args, opened.config.paramMappings);
          envelope = await opened.executor.execute(tool.qualifiedName, args, { validate: options.validate, signal: cli.signal, raw: options.raw });
        } catch (error) {
          if (!(error instanceof ToolrunError)) throw error;
          envelope = {
            success: false,
            error: describeThrown(error),
            error_kind: error.kind,
            tool_name: toolName,
            execution_time_ms: Math.round(Number(process.hrtime.bigint() - startedAt) / 10_000) / 100,
          };
        }
        const terminal = cli.terminal;
        if (cli.globals.json) await terminal.resultJson(envelope, { verbatimKeys: ['result'] });
        else if (envelope.success) {
          await terminal.result(options.raw ? toJson(envelope.result) : formatResult(envelope.result), { verbatim: true });
          terminal.info(formatEnvelopeFooter(envelope));
        } else if (options.raw && envelope.result !== undefined) {
          await terminal.result(toJson(envelope.result), { verbatim: true });
          terminal.error(`✖ ${envelope.tool_name}: ${envelope.error}`);
        } else if (envelope.error_kind === 'config') terminal.error(`✖ ${envelope.error}`);
        else terminal.error(`✖ ${envelope.tool_name}: ${envelope.error}`);
        if (!cli.globals.json && !envelope.success && envelope.server_stderr) {
          terminal.note(`  MCP server stderr (last ${envelope.server_stderr.length} line${envelope.server_stderr.length === 1 ? '' : 's'}):\n${envelope.server_stderr.map((line) => `    ${line}`).join('\n')}`);
        }
        return envelope.success ? ExitCode.OK : exitCodeForKind(envelope.error_kind);
      }),
    );
}
