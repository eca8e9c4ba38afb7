import { Option, type Command } from 'commander';
import { ExitCode } from '../errors.js';
import { formatTable, toToolListRow } from '../output/format-tool-list.js';
import { formatDefinition } from '../registry/definition-formats.js';
import type { CommandRunner } from './cli-context.js';
import { openTools } from './open-tools.js';

interface ListOptions {
  server?: string[];
  local?: boolean;
  format?: 'table' | 'json' | 'anthropic' | 'openai';
}

export function registerListCommand(program: Command, run: CommandRunner): void {
  program
    .command('list')
    .description('list every tool in the registry: name, source, parameters, description')
    .option('--server <name...>', 'only the tools of these MCP servers (starts only them)')
    .option('--local', 'only local tools (builtin, mock, internal); starts no server')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json', 'anthropic', 'openai']))
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun list
  $ toolrun list --local --json
  $ toolrun list --format anthropic > tools.json     # {name, description, input_schema}[]
  $ toolrun list --format openai                     # {type:"function", function:{...}}[]`,
    )
    .action((options: ListOptions) =>
      run(async (cli) => {
        const { registry, connect } = await openTools(cli);
        const failures = options.local ? [] : await connect(options.server?.length ? options.server : undefined);
        const tools = registry.list().filter((tool) => {
          if (options.local) return tool.source !== 'mcp';
          if (options.server?.length) return tool.server !== undefined && options.server.includes(tool.server);
          return true;
        });
        const callNames = registry.callNames();
        const callName = (tool: (typeof tools)[number]) => callNames.get(tool)!;
        const format = options.format ?? (cli.globals.json ? 'json' : 'table');
        if (format === 'anthropic' || format === 'openai') {
          // Provider APIs need unique names of [A-Za-z0-9_-]: a tool reachable only as SERVER:TOOL
          // (its plain name taken by another) cannot be offered to a model under its own name.
          const offered = tools.filter((tool) => registry.find(tool.definition.name) === tool);
          const left = tools.filter((tool) => registry.find(tool.definition.name) !== tool).map((tool) => tool.qualifiedName);
          if (left.length > 0) cli.terminal.warn(`left out (name taken by another tool): ${left.join(', ')}`);
          await cli.terminal.resultJson(offered.map((tool) => formatDefinition(tool.definition, format)));
        } else if (format === 'json') {
          await cli.terminal.resultJson({
            tools: tools.map((tool) => ({
              name: callName(tool),
              source: tool.server ? `mcp:${tool.server}` : tool.source,
              ...(tool.server ? { server: tool.server } : {}),
              description: tool.definition.description,
              parameters: tool.definition.parameters,
            })),
          });
        } else {
          const rows = tools.map((tool) => toToolListRow(tool, callName(tool)));
          const table = formatTable(
            ['NAME', 'SOURCE', 'PARAMETERS (* required)', 'DESCRIPTION'],
            rows.map((row) => [row.name, row.source, row.parameters, row.description]),
            cli.terminal.stdout.isTTY ? cli.terminal.stdout.columns : undefined,
          );
          await cli.terminal.result(table);
          cli.terminal.info(`${tools.length} tool${tools.length === 1 ? '' : 's'}`);
        }
        if (failures.length > 0) {
          const { formatContinuing } = await import('../output/format-connect-failure.js');
          const localNames = registry.list().filter((tool) => tool.source !== 'mcp').map((tool) => tool.definition.name);
          cli.terminal.warn(formatContinuing(failures, [...registry.servers.values()].filter((s) => s.status === 'connected').length, localNames));
          return ExitCode.UNREACHABLE;
        }
        return ExitCode.OK;
      }),
    );
}
