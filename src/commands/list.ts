import { Option, type Command } from 'commander';
import { ExitCode } from '../errors.js';
import { formatTable, toToolListRow } from '../output/format-tool-list.js';
import { formatDefinition } from '../registry/definition-formats.js';
import { checkProviderLimits } from '../registry/provider-limits.js';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { isGatedFailure, openTools } from './support/open-tools.js';

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
  $ toolrun list --format openai                     # {type:"function", function:{...}}[]
                                # every tool, named as the API allows: everything:echo -> everything__echo
  $ toolrun exec everything__echo message=hi         # the API name a model answers with runs the tool`,
    )
    .action((options: ListOptions) =>
      run(async (cli) => {
        const { registry, connect } = await openTools(cli, { useSession: true });
        // Listing all servers, one its host gates (pending approval, untrusted, a Zed extension's…) is
        // shown with its state, not a failure (issue 47); named with --server, it is one (exit 4).
        const named = Boolean(options.server?.length);
        const failures = (options.local ? [] : await connect(named ? options.server : undefined, { gatedShown: !named })).filter((failure) => named || !isGatedFailure(failure));
        const tools = registry.list().filter((tool) => {
          if (options.local) return tool.source !== 'mcp';
          if (options.server?.length) return tool.server !== undefined && options.server.includes(tool.server);
          return true;
        });
        const callNames = registry.callNames();
        const callName = (tool: (typeof tools)[number]) => callNames.get(tool)!;
        const format = options.format ?? (cli.globals.json ? 'json' : 'table');
        if (format === 'anthropic' || format === 'openai') {
          // Every tool is offered, under a name the API accepts (`server__tool` for `server:tool`);
          // exec and the library API take that name back.
          const apiNames = registry.apiNames();
          const offered = tools.map((tool) => ({ ...tool.definition, name: apiNames.get(tool)! }));
          const renamed = tools.filter((tool) => apiNames.get(tool) !== callName(tool)).map((tool) => `${callName(tool)} → ${apiNames.get(tool)}`);
          if (renamed.length > 0)
            cli.terminal.info(`offered under API names (exec and the library API take them): ${renamed.slice(0, 5).join(', ')}${renamed.length > 5 ? `, … ${renamed.length - 5} more` : ''}`);
          for (const warning of checkProviderLimits(format, offered)) cli.terminal.warn(warning);
          await cli.terminal.resultJson(offered.map((definition) => formatDefinition(definition, format)));
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
          const localNames = registry
            .list()
            .filter((tool) => tool.source !== 'mcp')
            .map((tool) => tool.definition.name);
          cli.terminal.warn(formatContinuing(failures, [...registry.servers.values()].filter((s) => s.status === 'connected').length, localNames));
          return ExitCode.UNREACHABLE;
        }
        return ExitCode.OK;
      }),
    );
}
