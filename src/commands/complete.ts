import type { Command } from 'commander';
import { ExitCode, ToolrunError, UsageError } from '../errors.js';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { collectNameValue } from '../cli-support/name-value-option.js';
import { connectServersFor, describeFailures } from './support/connected-servers.js';
import { mcpRequestError } from '../cli-support/mcp-request-error.js';
import { toolrunCommand } from '../text/quote-shell-word.js';

interface CompleteOptions {
  context: Record<string, string>;
}

interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

export function registerCompleteCommand(program: Command, run: CommandRunner): void {
  program
    .command('complete')
    .description("ask a server to complete a prompt's or resource template's argument (completion/complete)")
    .argument('<server>', 'the MCP server to ask')
    .argument('<kind>', 'prompt or resource')
    .argument('<name>', 'the prompt name, or the resource template (its URI template, as resources --templates shows it)')
    .argument('<arg>', 'the argument to complete')
    .argument('[prefix]', 'what is typed so far (default: nothing)', '')
    .option('--context <name=value>', 'an argument already chosen, for servers whose completions depend on it (repeatable)', collectNameValue, {})
    .addHelpText(
      'after',
      `
Prints the values one per line; with --json the server's whole completion ({values, total, hasMore}).
A server without the completions capability is exit 2; an unknown prompt or template is the server's error.

Examples:
  $ toolrun complete everything prompt completable-prompt department E
  $ toolrun complete everything prompt completable-prompt name --context department=Engineering
  $ toolrun complete everything resource 'demo://resource/dynamic/text/{resourceId}' resourceId 1
  $ toolrun --json complete everything prompt completable-prompt department`,
    )
    .action((server: string, kind: string, name: string, argName: string, prefix: string, options: CompleteOptions) =>
      run(async (cli) => {
        if (kind !== 'prompt' && kind !== 'resource')
          throw new UsageError(`complete takes 'prompt NAME' or 'resource TEMPLATE', not '${kind}'; e.g. ${toolrunCommand('complete', server, 'prompt', 'NAME', 'ARG')} [PREFIX]`);
        const { connected, failures } = await connectServersFor(cli, [server], 'completions');
        const connection = connected[0];
        if (!connection) throw new ToolrunError('unreachable', `cannot complete: ${describeFailures(failures)}`);
        if (!connection.capabilities?.completions) throw new UsageError(`MCP server '${server}' does not offer completions (no 'completions' capability in its handshake)`);
        const ref = kind === 'prompt' ? { type: 'ref/prompt', name } : { type: 'ref/resource', uri: name };
        const context = Object.keys(options.context).length > 0 ? { context: { arguments: options.context } } : {};
        const result = await connection.client
          .request('completion/complete', { ref, argument: { name: argName, value: prefix }, ...context }, { signal: cli.signal, timeout: cli.globals.timeout })
          .catch((error: unknown) => {
            throw mcpRequestError(connection, `completion/complete (${kind})`, error, name);
          });
        const completion = readCompletion(result.completion, server);
        if (cli.globals.json) {
          await cli.terminal.resultJson(completion, { verbatimKeys: ['values'] });
          return ExitCode.OK;
        }
        if (completion.values.length > 0) await cli.terminal.result(completion.values.join('\n'), { verbatim: true });
        const shown = `${completion.values.length} value${completion.values.length === 1 ? '' : 's'}`;
        const total = typeof completion.total === 'number' && completion.total !== completion.values.length ? ` of ${completion.total}` : '';
        cli.terminal.info(`${completion.values.length === 0 ? 'no completions' : shown + total}${completion.hasMore ? ' (more available: type more of the prefix)' : ''} · mcp:${server}`);
        return ExitCode.OK;
      }),
    );
}

function readCompletion(value: unknown, server: string): Completion {
  const completion = value as Partial<Completion> | undefined;
  if (!completion || !Array.isArray(completion.values) || !completion.values.every((item) => typeof item === 'string'))
    throw new ToolrunError('tool_error', `MCP server '${server}' answered completion/complete without a list of string values`);
  return completion as Completion;
}
