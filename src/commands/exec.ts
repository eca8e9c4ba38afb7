import { Option, type Command } from 'commander';
import { parseArgWords } from '../args/parse-tool-args.js';
import { ToolrunError, UsageError, describeThrown } from '../errors.js';
import { takeOptionalFile } from '../cli-support/optional-file-option.js';
import { printExecOutcome, shapeOutcome, type ExecOutcome } from '../cli-support/exec-output.js';
import type { ToolEnvelope } from '../executor/envelope.js';
import { showProgress, type CallProgress } from '../cli-support/show-progress.js';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { isLocalTool } from '../cli-support/is-local-tool.js';
import { loadCliConfig } from '../cli-support/load-cli-config.js';
import { withHostHint } from '../cli-support/host-hint.js';
import { openTools } from './support/open-tools.js';
import { resolveTool } from './support/resolve-tool.js';
import { mergeArguments, readBaseArguments, splitToolName, type ToolArgumentOptions } from '../cli-support/tool-arguments.js';

interface ExecOptions extends ToolArgumentOptions {
  raw?: boolean;
  structured?: boolean;
  outputDir?: string;
  task?: boolean;
  wait?: boolean;
  locked?: string | true;
}

/**
 * `exec --no-wait SERVER:TOOL` on a remote server: its MCP session is kept on a session holder, so
 * `tasks get` finds a task the server keeps in that session (issue #32); said in one line on stderr.
 */
async function holdRemoteTask(cli: CliContext, config: ToolrunConfig, server: string): Promise<boolean | undefined> {
  if (!config.servers[server] || !('url' in config.servers[server])) return undefined;
  const { holdServerForTask } = await import('../session/hold-for-task.js');
  const held = await holdServerForTask(cli, config, server);
  if (!held) return undefined;
  const { formatDuration } = await import('../session/parse-duration.js');
  cli.terminal.info(
    `the MCP session with '${server}' is kept on the session holder pid ${held.pid}${held.startedHere ? ` (started for it; it exits after ${formatDuration(held.idleMs)} idle, or with: toolrun session stop)` : ''}, so 'toolrun tasks get ID --server ${server}' finds the task`,
  );
  return true;
}

/**
 * exec --locked (SPEC §24): the server's tool runs only when the lock pins its server and its
 * definition as the server lists it now (what a model would have been told); else exit 2 naming what
 * changed. toolrun's own tools are not the lock's business.
 */
function assertLocked(lock: import('../lock/enforce.js').LockFilter, opened: Awaited<ReturnType<typeof openTools>>, server: string, name: string): void {
  const status = opened.registry.servers.get(server);
  const listed = status?.status === 'connected' ? status.connection.tools.find((tool) => tool.name === name) : undefined;
  const why = listed ? lock.refusal(server, listed) : lock.refusalOfName(server, name);
  if (why === undefined) return;
  const fix = lock.pins(server) ? `review it, then re-pin with: toolrun lock --update ${server}` : `pin it with: toolrun lock ${server}`;
  throw new ToolrunError('not_found', `Tool '${server}:${name}' is not run (exec --locked): ${why}; ${fix}`);
}

export function registerExecCommand(program: Command, run: CommandRunner): void {
  program
    .command('exec')
    .description('validate arguments, run a tool, print its result')
    .usage('[options] <tool> [args...]')
    // Optional to commander only so that `--locked TOOL` can give the tool back (optional-file-option.ts).
    .argument('[tool]', 'tool name, or SERVER:TOOL')
    .argument('[args...]', 'key=value (typed by the schema) or key:=json')
    .option('--args <json>', 'arguments as JSON, @file.json, or - for stdin (key=value words are merged over it)')
    .option('--server <name>', 'use the tool of this MCP server, and start only that server')
    .option('--no-validate', 'send the arguments without checking them against the schema')
    .addOption(new Option('--raw', "print the tool's whole MCP result (content, structuredContent, isError)").conflicts('structured'))
    .option('--structured', "print the tool's structuredContent as JSON (default: its text content)")
    .option('-o, --output-dir <dir>', 'write images, audio and binary resources of the result to files in DIR and print their paths')
    .option('--task', "run the call as a task (a tool whose execution.taskSupport is 'optional'); followed to its end")
    .option('--no-wait', "start the call as a task and print its id (see 'toolrun tasks get|cancel')")
    .option('--locked [file]', "run a server's tool only as toolrun.lock (or FILE) pins it: one added or changed since is refused (exit 2) with what changed")
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun exec get_current_datetime
  $ toolrun exec get_current_datetime timezone=Asia/Tokyo
  $ toolrun exec math_eval expression='2^10 / 4'
  $ toolrun exec echo count:=3 tags='["a","b"]'
  $ echo '{"expression":"sqrt(2)"}' | toolrun exec math_eval --args -
  $ toolrun --json exec math_eval expression='2+2'   # {"success":true,"result":{"result":4},...}
  $ toolrun exec everything:get-structured-content location=Chicago --structured
  $ toolrun exec everything:get-tiny-image -o images/   # prints images/get-tiny-image-2.png
  $ toolrun exec everything:simulate-research-query topic=tides   # a task: its status on stderr, then the report
  $ toolrun exec --no-wait jobs:build ref=main   # prints the task id; then toolrun tasks get ID --server jobs
  $ toolrun lock && toolrun exec --locked notes:read_notes folder=inbox   # refused if read_notes changed since

On a remote (HTTP) server, --no-wait SERVER:TOOL keeps the MCP session on a session holder (its tasks
may live in that session); it exits after 10 min idle, or with: toolrun session stop`,
    )
    .action((typedName: string | undefined, typedWords: string[], options: ExecOptions) =>
      run(async (cli) => {
        const locked = takeOptionalFile(options.locked, cli.cwd, 'toolrun.lock');
        const [toolName, ...words] = [locked.word, typedName, ...typedWords].filter((word) => word !== undefined);
        if (toolName === undefined) throw new UsageError("missing required argument 'tool'");
        const startedAt = process.hrtime.bigint();
        let envelope: ToolEnvelope | undefined;
        let outcome: ExecOutcome;
        let progress: CallProgress | undefined;
        try {
          const target = splitToolName(toolName, options.server);
          const parsedWords = parseArgWords(words);
          // Read once (it may be stdin), for whichever path runs the call.
          const baseArgs = await readBaseArguments(cli, options.args);
          // Read before any server starts: a missing or bad lock is exit 2 with nothing started.
          const lock = locked.file === undefined ? undefined : (await import('../lock/enforce.js')).openLockFilter(cli.cwd, locked.file);
          const config = await loadCliConfig(cli);
          // A session holder keeping the server warm runs an MCP tool's call (SPEC §12); else it runs here, cold.
          // A task call is not the holder's `exec` (it follows no task); --no-wait on HTTP holds the session below.
          // Nor is a locked one: the definition checked must be the one listed by the connection that runs the call.
          const taskCall = options.task === true || options.wait === false;
          if (!taskCall && !lock && cli.globals.session && Object.keys(config.servers).length > 0 && (target.server || !isLocalTool(config, target.name))) {
            progress = await showProgress(cli, target.server ? `${target.server}:${target.name}` : target.name);
            const { execThroughHolder } = await import('../session/warm-exec.js');
            envelope = await execThroughHolder(cli, config, { name: target.name, server: target.server, words: parsedWords, baseArgs, validate: options.validate, onProgress: progress.onProgress });
            if (!envelope) progress.stop();
          }
          if (!envelope) {
            const held = options.wait === false && target.server ? await holdRemoteTask(cli, config, target.server) : undefined;
            const opened = await openTools(cli, { likelyTool: target.server ? undefined : target.name, config, useSession: held !== undefined });
            const tool = await resolveTool(opened, target.name, target.server);
            if (lock && tool.server) assertLocked(lock, opened, tool.server, tool.definition.name);
            if (options.wait === false && !held && tool.server && 'url' in config.servers[tool.server]!)
              cli.terminal.warn(
                `the MCP session with '${tool.server}' ends with this command: a server that keeps its tasks in the session (as server-everything does) will not find this task with 'tasks get'${target.server ? '' : `; name the server (${tool.server}:${target.name}) to keep the session on a session holder`}`,
              );
            const args = mergeArguments(tool, parsedWords, baseArgs, opened.config.paramMappings);
            progress = await showProgress(cli, tool.qualifiedName);
            // MCP tools give their whole result: each output mode (and -o) is made from it below.
            // Loaded only for a server's tool (or --task/--no-wait, refused for a local one): it brings the
            // ask-back answers (elicitation, sampling), which a local tool never needs, at ~3-5 ms a chunk.
            const asksForTask = tool.server !== undefined || options.task === true || options.wait === false;
            const task = asksForTask ? (await import('../cli-support/show-task-status.js')).taskOptionsFor(cli, tool.definition.name, options, tool.server) : undefined;
            envelope = await opened.executor.execute(tool.qualifiedName, args, { validate: options.validate, signal: cli.signal, raw: true, onProgress: progress.onProgress, task });
          }
          outcome = await shapeOutcome(envelope, options);
        } catch (thrown) {
          const error = await withHostHint(cli, thrown);
          if (!(error instanceof ToolrunError)) throw error;
          const execution_time_ms = Math.round(Number(process.hrtime.bigint() - startedAt) / 10_000) / 100;
          outcome = { envelope: { success: false, error: describeThrown(error), error_kind: error.kind, tool_name: toolName, execution_time_ms } };
        }
        progress?.stop();
        return printExecOutcome(cli.terminal, cli.globals.json, outcome, options);
      }),
    );
}
