import type { Command } from 'commander';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ExitCode, ToolrunError } from '../errors.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import { connectServersFor, describeFailures } from './support/connected-servers.js';
import { mcpRequestError } from '../cli-support/mcp-request-error.js';
import { oneLine } from '../output/escape-controls.js';

interface TaskCommandOptions {
  server: string;
}

/**
 * `toolrun tasks get|cancel ID --server S` (SPEC §15): a task started with `exec --no-wait`, or by
 * anyone, asked about or cancelled later. A stdio server's tasks end with its process, so these
 * are for servers that outlive one toolrun run (remote ones, or a warm session's). A remote server
 * that keeps tasks in its MCP session is asked through the session holder `exec --no-wait` kept it on.
 */
export function registerTasksCommand(program: Command, run: CommandRunner): void {
  const tasks = program
    .command('tasks')
    .description("a task's status and result, or cancel it (long-running calls a server runs as MCP tasks)")
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun exec --no-wait jobs:build ref=main          # prints the task id
  $ toolrun tasks get 786512e2-9e0d-44bd-8f29-789f320fe840 --server jobs
  $ toolrun --json tasks get 786512e2-9e0d-44bd-8f29-789f320fe840 --server jobs
  $ toolrun tasks cancel 786512e2-9e0d-44bd-8f29-789f320fe840 --server jobs`,
    );
  tasks
    .command('get')
    .description("a task's status; its result once it completed (stdout), as exec prints one")
    .argument('<id>', 'the task id')
    .requiredOption('--server <name>', 'the MCP server that runs the task')
    .addHelpText('after', '\nExamples:\n  $ toolrun tasks get 786512e2-9e0d-44bd-8f29-789f320fe840 --server jobs\n  $ toolrun --json tasks get 786512e2-9e0d-44bd-8f29-789f320fe840 --server jobs')
    .action((taskId: string, options: TaskCommandOptions) =>
      run(async (cli) => {
        // Loaded here, not at every command's startup.
        const [{ getTask, taskResult }, { describeTaskStatus }, { renderCallResult }] = await Promise.all([
          import('../mcp/tasks/task-requests.js'),
          import('../mcp/tasks/task-state.js'),
          import('../output/render-call-result.js'),
        ]);
        const connection = await connectOne(cli, options.server);
        const requestOptions = { signal: cli.signal, timeout: cli.globals.timeout };
        const task = await getTask(connection.client, taskId, requestOptions).catch((error: unknown) => {
          throw mcpRequestError(connection, 'tasks/get', error, taskId);
        });
        const result =
          task.status === 'completed' || task.status === 'failed'
            ? await taskResult(connection.client, task, requestOptions).catch((error: unknown) => {
                throw mcpRequestError(connection, 'tasks/result', error, taskId);
              })
            : undefined;
        if (cli.globals.json) {
          const { result: _inline, inputRequests: _asked, ...state } = task;
          await cli.terminal.resultJson({ ...state, server: connection.name, ...(result && { result }) }, { verbatimKeys: ['result'] });
          return ExitCode.OK;
        }
        if (result && task.status === 'completed') {
          await cli.terminal.result(renderCallResult(result as CallToolResult, 'text', { server: connection.name }), { verbatim: true });
          cli.terminal.info(`✔ task ${oneLine(`${task.taskId} ${describeTaskStatus(task)}`)} · mcp:${connection.name}`);
        } else await cli.terminal.result(oneLine(`${task.taskId} ${describeTaskStatus(task)}`));
        return ExitCode.OK;
      }),
    );
  tasks
    .command('cancel')
    .description('cancel a task on its server')
    .argument('<id>', 'the task id')
    .requiredOption('--server <name>', 'the MCP server that runs the task')
    .addHelpText('after', '\nExamples:\n  $ toolrun tasks cancel 786512e2-9e0d-44bd-8f29-789f320fe840 --server jobs')
    .action((taskId: string, options: TaskCommandOptions) =>
      run(async (cli) => {
        const { cancelTask } = await import('../mcp/tasks/task-requests.js');
        const connection = await connectOne(cli, options.server);
        const task = await cancelTask(connection.client, taskId, { signal: cli.signal, timeout: cli.globals.timeout }).catch((error: unknown) => {
          throw mcpRequestError(connection, 'tasks/cancel', error, taskId);
        });
        if (cli.globals.json) await cli.terminal.resultJson({ taskId: task.taskId, status: task.status, server: connection.name });
        else await cli.terminal.result(oneLine(`${task.taskId} ${task.status}`));
        return ExitCode.OK;
      }),
    );
}

async function connectOne(cli: CliContext, server: string): Promise<ServerConnection> {
  const { connected, failures } = await connectServersFor(cli, [server], 'tools');
  const connection = connected[0];
  if (!connection) throw new ToolrunError('unreachable', failures.length > 0 ? describeFailures(failures).replace(/; its items are missing$/, '') : `MCP server '${server}' could not be connected`);
  return connection;
}
