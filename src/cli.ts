import { setMaxListeners } from 'node:events';
import { Command, CommanderError } from 'commander';
import { readAllStdin } from './args/read-args-option.js';
import { limitAuthRequests } from './auth/auth-request-limits.js';
import { onAuthWarning } from './auth/auth-warnings.js';
import { allowInlineLogin } from './auth/inline-login.js';
import type { CliContext, CommandAction } from './cli-support/cli-context.js';
import { COMMANDS, commandWordOf } from './commands/top-level-commands.js';
import { addGlobalOptions, readGlobals } from './cli-support/global-options.js';
import { inlineLoginFor } from './cli-support/inline-login.js';
import { describeThrown, ExitCode, ToolrunError, exitCodeForKind } from './errors.js';
import { withHostHint } from './cli-support/host-hint.js';
import { Terminal } from './output/terminal.js';
import { readVersion } from './version.js';
import { withRunEnvironment } from './run-environment.js';
import { startRunTrace } from './trace/start-run-trace.js';

export interface RunCliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  /**
   * The command is its process's only one (the toolrun executable): it reads the process's own
   * environment and folder, so none is set up for it (run-environment.ts). On Node 20 a running
   * AsyncLocalStorage store puts a hook on every promise, which made each await of a call several
   * times dearer (`time`'s and serve's per-call cost).
   */
  ownsProcess?: boolean;
}

/** After an interrupted command's servers are ended, how long it may take to print what it had. */
const ACTION_GRACE_MS = 3000;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: ExitCode.INTERRUPTED, SIGTERM: 143, SIGHUP: 129 };

/**
 * Runs toolrun with `argv` (as process.argv: node, script, ...args) and resolves to the exit code.
 * It calls process.exit only on SIGINT/SIGTERM, once every child is ended, so tests can run it
 * in-process.
 */
export async function runCli(argv: string[], options: RunCliOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const wantsJson = argv.includes('--json');
  let exitCode: number = ExitCode.OK;
  let signalExitCode: number | undefined;
  const cleanups: Array<() => Promise<void>> = [];
  const abort = new AbortController();
  // Every server being connected listens for Ctrl-C on this one signal: hundreds of listeners are by design.
  setMaxListeners(0, abort.signal);

  // One run of the cleanups, whoever asks first (the command's finally, or a signal): the other waits for it.
  let cleanupRun: Promise<void> | undefined;
  const runCleanups = () =>
    (cleanupRun ??= (async () => {
      const pending = cleanups.splice(0).reverse();
      await Promise.allSettled(pending.map((cleanup) => cleanup()));
    })());
  let signalShutdown: Promise<void> | undefined;

  const program = buildProgram(
    stdout,
    stderr,
    async (action: CommandAction) => {
      const globals = readGlobals(program);
      const terminal = await Terminal.create({ json: globals.json, verbose: globals.verbose, quiet: globals.quiet, noColorFlag: !globals.color, env, stdout, stderr });
      const cli: CliContext = {
        globals,
        terminal,
        env,
        cwd: options.cwd ?? process.cwd(),
        signal: abort.signal,
        argv,
        readStdin: () => readAllStdin(abort.signal),
        endCommand: (reason) => abort.abort(reason),
        onExit: (cleanup) => cleanups.push(cleanup),
      };
      allowInlineLogin(inlineLoginFor(cli));
      limitAuthRequests(globals.timeout);
      onAuthWarning((message) => terminal.warn(message));
      const onSignal = (signal: NodeJS.Signals) => {
        if (abort.signal.aborted) {
          // A second Ctrl-C while servers are being shut down politely: exit now. The exit hook of
          // process-group.ts SIGKILLs every server (and its descendants) that is still alive.
          terminal.error(`✖ interrupted again (${signal}); killing servers`);
          process.exit(signalExitCode ?? ExitCode.INTERRUPTED);
        }
        terminal.error(`✖ interrupted (${signal}); stopping`);
        signalExitCode = SIGNAL_EXIT_CODES[signal] ?? ExitCode.INTERRUPTED;
        abort.abort(new ToolrunError('interrupted', `interrupted by ${signal}`));
        // The same polite ladder as on success (stdin closed, SIGTERM, SIGKILL after the grace), for
        // every server toolrun started, a connection still being made included (SPEC §8). Then exit,
        // even if the command itself is stuck.
        signalShutdown = (async () => {
          const { shutdownAllServers } = await import('./process/process-group.js');
          await Promise.allSettled([runCleanups(), shutdownAllServers()]);
        })();
        // The command normally finishes now (its report of what it had, then the normal exit); one
        // that is stuck does not keep toolrun alive.
        void signalShutdown.then(() => delay(ACTION_GRACE_MS)).finally(() => process.exit(signalExitCode ?? ExitCode.INTERRUPTED));
      };
      // SIGHUP too: a closed terminal must not leave servers behind.
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      process.on('SIGHUP', onSignal);
      let finishTrace: ((exitCode: number) => Promise<string | undefined>) | undefined;
      try {
        const started = await startRunTrace({ traceParent: globals.traceParent, otlp: globals.otlp, env, commandName: commandNameOf(argv, program), warn: (message) => terminal.warn(message) });
        finishTrace = started.finish;
        terminal.verbose(
          `trace ${started.trace.traceId} (${started.trace.source === 'new' ? 'new' : `continued from ${started.trace.source}`}${started.trace.recorder ? ', spans exported over OTLP' : ''})`,
        );
        exitCode = await action(cli);
      } catch (error) {
        exitCode = await reportError(await withHostHint(cli, error), terminal, globals.json);
      } finally {
        // --json promises one document on stdout, interrupted or not.
        if (signalExitCode !== undefined && globals.json && !terminal.wroteResult) {
          await terminal.resultJson({ success: false, error: describeThrown(abort.signal.reason), error_kind: 'interrupted' });
        }
        await runCleanups();
        // Interrupted: toolrun's exit must not cut the servers' shutdown short (its exit hook SIGKILLs).
        if (signalShutdown) await signalShutdown;
        // The spans, once every connection is closed (their last requests ended): bounded, never the exit code.
        const traceWarning = await finishTrace?.(signalExitCode ?? exitCode);
        if (traceWarning) terminal.warn(traceWarning);
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        process.off('SIGHUP', onSignal);
      }
    },
    (built) => commandWordOf(argv, built),
  );

  try {
    // What runs below reads this command's environment and folder, not the host process's (run-environment.ts).
    const parse = () => program.parseAsync(argv);
    await (options.ownsProcess ? parse() : withRunEnvironment({ env, cwd: options.cwd ?? process.cwd() }, parse));
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.OK;
    // Help shown because no command was given (`toolrun`, `toolrun mcp`): a usage error.
    if (error.code === 'commander.help') return error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    if (wantsJson) stdout.write(`${JSON.stringify({ success: false, error: cleanCommanderMessage(error.message), error_kind: 'usage' })}\n`);
    return ExitCode.USAGE;
  }
  // Interrupted: whatever the command made of it, the exit code says so (130 for Ctrl-C).
  return signalExitCode ?? exitCode;
}

/**
 * The program with its commands registered: only `only` when it names one (the command of this run),
 * else all of them (help, a typo's suggestions, and the test that keeps the completion table in step).
 */
export function buildProgram(stdout: NodeJS.WriteStream, stderr: NodeJS.WriteStream, run: (action: CommandAction) => Promise<void>, only?: (program: Command) => string | undefined): Command {
  const program = new Command('toolrun');
  // Set before the subcommands are added: commander copies these settings into each of them.
  program.configureOutput({
    writeOut: (text) => stdout.write(text),
    writeErr: (text) => stderr.write(text),
    // Commander's messages, made one line with the way out: "✖ unknown option '--fo' (Did you mean --format?)".
    outputError: (text, write) => write(`✖ ${cleanCommanderMessage(text)}. Run 'toolrun --help' (or 'toolrun <command> --help') for usage.\n`),
  });
  program.description('Run any tool from the shell in one line, and debug MCP servers.');
  addGlobalOptions(program);
  program
    .version(readVersion(), '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun exec get_current_datetime
  $ toolrun exec math_eval expression='2^10 / 4'
  $ toolrun list --format anthropic
  $ toolrun --config home.json exec control_zwave_device device_name='Switch One' command=on
  $ toolrun validate
  $ toolrun time get_current_datetime -n 1000
  $ toolrun --config home.json mcp doctor zwave
  $ toolrun resources read 'demo://resource/static/document/architecture.md'
  $ toolrun prompts get everything:args-prompt city=Paris
  $ toolrun session start && toolrun exec everything:echo message=hi   # warm: no server startup
  $ toolrun hosts                                    # MCP configs of Claude Desktop, Cursor, VS Code… found here
  $ toolrun --host cursor exec github:search_repositories query=mcp   # a server of Cursor's config
  $ toolrun auth login linear                        # OAuth for a remote server; exec then uses the token

Exit codes: 0 ok · 1 tool failed · 2 usage · 3 config · 4 MCP server unreachable · 130 interrupted`,
    );
  const word = only?.(program);
  for (const name of word !== undefined ? [word] : Object.keys(COMMANDS)) COMMANDS[name]!(program, run);
  for (const command of [...program.commands, ...program.commands.flatMap((parent) => parent.commands)]) command.exitOverride().showSuggestionAfterError(true);
  return program;
}

/** The command's span name: `toolrun exec`, `toolrun mcp conform`. */
function commandNameOf(argv: string[], program: Command): string {
  const word = commandWordOf(argv, program);
  if (!word) return 'toolrun';
  const sub = program.commands.find((command) => command.name() === word)?.commands.find((command) => argv.slice(argv.indexOf(word) + 1).includes(command.name()));
  return `toolrun ${word}${sub ? ` ${sub.name()}` : ''}`;
}

async function reportError(error: unknown, terminal: Terminal, json: boolean): Promise<number> {
  if (error instanceof ToolrunError) {
    if (json) await terminal.resultJson({ success: false, error: error.message, error_kind: error.kind });
    terminal.error(`✖ ${error.message}`);
    return exitCodeForKind(error.kind);
  }
  // A bug in toolrun, not in the user's input: say so, keep the stack for --verbose.
  const message = error instanceof Error ? error.message : String(error);
  if (json) await terminal.resultJson({ success: false, error: `internal error: ${message}`, error_kind: 'internal' });
  terminal.error(`✖ internal error: ${message}`);
  terminal.verbose(error instanceof Error && error.stack ? error.stack : '');
  return ExitCode.FAILURE;
}

function cleanCommanderMessage(message: string): string {
  return message
    .replace(/^error: /, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ')
    .replace(/\.$/, '');
}
