import type { Command } from 'commander';
import type { CallToolResult, GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { parseArgWords } from '../args/parse-tool-args.js';
import { readArgsOption } from '../args/read-args-option.js';
import { ExitCode, ToolrunError, UsageError } from '../errors.js';
import { listItems } from '../mcp/list-items.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { formatTable } from '../output/format-tool-list.js';
import { renderCallResult } from '../output/render-call-result.js';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { connectServersFor, describeEmptyListing, describeFailures, exitAfterListing } from './support/connected-servers.js';
import { mcpRequestError } from '../cli-support/mcp-request-error.js';
import { splitToolName } from '../cli-support/tool-arguments.js';

interface ListOptions {
  server?: string[];
}

interface GetOptions {
  server?: string;
  args?: string;
}

export function registerPromptsCommand(program: Command, run: CommandRunner): void {
  const prompts = program
    .command('prompts')
    .description("list MCP servers' prompts, get one rendered with its arguments")
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun prompts
  $ toolrun prompts --server everything --json
  $ toolrun prompts get simple-prompt
  $ toolrun prompts get everything:args-prompt city=Paris state=France
  $ toolrun prompts get ask --args '{"topic":"MCP"}'`,
    );
  prompts
    .command('list', { isDefault: true })
    .description('prompts of every server, with their arguments (* required)')
    .option('--server <name...>', 'only these MCP servers (starts only them)')
    .action((options: ListOptions) =>
      run(async (cli) => {
        const servers = await connectServersFor(cli, options.server, 'prompts');
        const { offering, failures } = servers;
        const rows: Array<Prompt & { server: string }> = [];
        for (const connection of offering) {
          const items = await listItems(connection.client, 'prompts', { signal: cli.signal, timeout: cli.globals.timeout }).catch((error: unknown) => {
            throw mcpRequestError(connection, 'prompts/list', error);
          });
          for (const item of items) rows.push({ server: connection.name, ...item });
        }
        if (cli.globals.json) await cli.terminal.resultJson({ prompts: rows });
        else if (rows.length === 0) cli.terminal.info(describeEmptyListing('prompts', 'prompts', servers));
        else {
          const cells = rows.map((row) => [row.server, row.name, (row.arguments ?? []).map((arg) => `${arg.name}${arg.required ? '*' : ''}`).join(', '), row.description ?? '']);
          await cli.terminal.result(formatTable(['SERVER', 'NAME', 'ARGUMENTS (* required)', 'DESCRIPTION'], cells, cli.terminal.stdout.isTTY ? cli.terminal.stdout.columns : undefined));
          cli.terminal.info(`${rows.length} prompt${rows.length === 1 ? '' : 's'} from ${offering.length} server${offering.length === 1 ? '' : 's'}`);
        }
        return exitAfterListing(cli, failures);
      }),
    );
  prompts
    .command('get')
    .description("get a prompt's messages, rendered (role, then content)")
    .argument('<name>', 'prompt name, or SERVER:PROMPT')
    .argument('[args...]', 'key=value (prompt arguments are strings)')
    .option('--server <name>', 'the MCP server of the prompt (starts only it)')
    .option('--args <json>', 'arguments as a JSON object of strings, @file.json, or - for stdin')
    .action((nameWord: string, words: string[], options: GetOptions) =>
      run(async (cli) => {
        const target = splitToolName(nameWord, options.server, 'prompts get');
        const parsedWords = parseArgWords(words);
        const base = options.args === undefined ? {} : await readArgsOption(options.args, { readStdin: () => cli.readStdin(), signal: cli.signal });
        const args: Record<string, unknown> = { ...base };
        for (const word of parsedWords) args[word.key] = word.isJson ? JSON.parse(word.value) : word.value;
        const { offering, failures } = await connectServersFor(cli, target.server ? [target.server] : undefined, 'prompts');
        const { connection, prompt } = await findPrompt(offering, target.name, cli.signal, failures.length > 0 ? describeFailures(failures) : undefined);
        const stringArgs = checkPromptArgs(prompt, args, connection.name);
        const result = (await connection.client.request('prompts/get', { name: prompt.name, arguments: stringArgs }, { signal: cli.signal, timeout: cli.globals.timeout }).catch((error: unknown) => {
          throw mcpRequestError(connection, 'prompts/get', error, prompt.name);
        })) as unknown as GetPromptResult;
        if (cli.globals.json) {
          await cli.terminal.resultJson({ server: connection.name, name: prompt.name, ...result }, { verbatimKeys: ['messages', 'description'] });
          return ExitCode.OK;
        }
        const messages = Array.isArray(result.messages) ? result.messages : [];
        const rendered = messages.map((message) => `${message.role}:\n${renderCallResult({ content: [message.content] } as CallToolResult, 'text', { server: connection.name })}`);
        await cli.terminal.result(rendered.join('\n\n'), { verbatim: true });
        cli.terminal.info(`✔ ${prompt.name} · mcp:${connection.name} · ${messages.length} message${messages.length === 1 ? '' : 's'}`);
        return ExitCode.OK;
      }),
    );
}

async function findPrompt(offering: ServerConnection[], name: string, signal: AbortSignal, unreachable: string | undefined): Promise<{ connection: ServerConnection; prompt: Prompt }> {
  const found: Array<{ connection: ServerConnection; prompt: Prompt }> = [];
  const known: string[] = [];
  for (const connection of offering) {
    const prompts = await listItems(connection.client, 'prompts', { signal }).catch((error: unknown) => {
      throw mcpRequestError(connection, 'prompts/list', error);
    });
    known.push(...prompts.map((prompt) => prompt.name));
    const prompt = prompts.find((candidate) => candidate.name === name);
    if (prompt) found.push({ connection, prompt });
  }
  if (found.length === 1) return found[0]!;
  if (found.length > 1)
    throw new UsageError(`prompt '${name}' is offered by several MCP servers (${found.map((item) => item.connection.name).join(', ')}); name one: SERVER:${name} or --server SERVER`);
  if (unreachable) throw new ToolrunError('unreachable', `prompt '${name}' not found; ${unreachable}`);
  throw new ToolrunError(
    'not_found',
    `prompt '${name}' not found${known.length > 0 ? `; prompts: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}` : '; no connected MCP server offers prompts'}`,
  );
}

/** Prompt arguments are strings (MCP): required ones present, no unknown ones, each a string. */
function checkPromptArgs(prompt: Prompt, args: Record<string, unknown>, server: string): Record<string, string> {
  const declared = prompt.arguments ?? [];
  const names = new Set(declared.map((arg) => arg.name));
  const unknown = Object.keys(args).filter((key) => !names.has(key));
  if (unknown.length > 0)
    throw new ToolrunError(
      'invalid_args',
      `prompt '${prompt.name}' of '${server}' has no argument ${unknown.map((key) => `'${key}'`).join(', ')}; its arguments: ${declared.map((arg) => `${arg.name}${arg.required ? '*' : ''}`).join(', ') || 'none'}`,
    );
  const missing = declared.filter((arg) => arg.required && args[arg.name] === undefined).map((arg) => arg.name);
  if (missing.length > 0) throw new ToolrunError('invalid_args', `prompt '${prompt.name}' needs ${missing.map((key) => `${key}=…`).join(' ')} (required)`);
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string')
      throw new ToolrunError('invalid_args', `prompt argument '${key}' must be a string (MCP prompt arguments are strings); got ${JSON.stringify(value)}: write ${key}=value`);
    strings[key] = value;
  }
  return strings;
}
