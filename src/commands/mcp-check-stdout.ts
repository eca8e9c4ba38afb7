import type { Readable } from 'node:stream';
import type { Command } from 'commander';
import { resolveServer, type StdioServerSpec } from '../config/resolve-server.js';
import { ExitCode, NotARecordingError, UsageError } from '../errors.js';
import { openInput } from '../input/open-input.js';
import type { ScanReport } from '../scan/stdout-scanner.js';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import { sessionCallOf } from '../cli-support/session-call.js';
import { assertServerExists } from '../cli-support/assert-server-exists.js';
import { openTools } from './support/open-tools.js';
import { hasDoubleDash, serverOnCommandLine, wordsAfterDash } from '../cli-support/server-on-command-line.js';

interface CheckStdoutOptions {
  file?: string;
  save?: string;
  call?: string;
}

export function registerMcpCheckStdoutCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('check-stdout')
    .description("check that a server's stdout carries nothing but JSON-RPC: replay it line by line as a strict client reads it")
    .argument('[server]', 'a configured server to run a session against, or - to read a capture from stdin (or -- COMMAND [ARGS...])')
    .argument('[args...]', 'arguments for --call: key=value or key:=json')
    .option('--file <path>', 'scan a recording (from --save) or a raw stdout capture instead of running a server')
    .option('--save <path>', 'record the session to PATH (every line sent, received and on stderr, with times: see docs/doctor-and-stdout.md)')
    .option('--call <tool>', 'also call this tool during the session (ARGS after the server name)')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun --config home.json mcp check-stdout zwave
  $ toolrun --config home.json mcp check-stdout zwave --call control_zwave_device deviceName='Switch One' action=on
  $ toolrun --config home.json mcp check-stdout zwave --save zwave.rec     # then attach zwave.rec to a bug report
  $ toolrun mcp check-stdout -- mcp-server-memory                          # a command, in this folder and environment
  $ toolrun mcp check-stdout --call echo message=hi -- node server.js
  $ toolrun mcp check-stdout --file zwave.rec
  $ my-server < requests.ndjson | toolrun mcp check-stdout -

Exit codes: 0 clean · 1 polluted · 4 server unreachable`,
    )
    .action((server: string | undefined, words: string[], options: CheckStdoutOptions, command: Command) => {
      // `-- COMMAND [ARGS…]`: the words after `--` are the server's command line, the ones before it --call's ARGS.
      if (!hasDoubleDash(command)) return run((cli) => checkStdout(cli, server, words, options));
      const positional = [...(server === undefined ? [] : [server]), ...words];
      const commandLine = positional.slice(positional.length - wordsAfterDash(command));
      return run((cli) => checkStdout(cli, undefined, positional.slice(0, positional.length - commandLine.length), options, commandLine));
    });
}

async function checkStdout(cli: CliContext, named: string | undefined, words: string[], options: CheckStdoutOptions, commandLine?: string[]): Promise<number> {
  const { scanStream } = await import('../check-stdout/scan-stream.js');
  const { formatScanReport, scanReportJson } = await import('../output/format-scan-report.js');
  if (commandLine?.length === 0) throw new UsageError("an empty command after --: give the server's command (e.g. toolrun mcp check-stdout -- mcp-server-memory)");
  let server = named ?? commandLine?.[0];
  const sources = [server !== undefined, options.file !== undefined].filter(Boolean).length;
  if (sources !== 1) throw new UsageError('give exactly one source: a server name, -- COMMAND, --file PATH, or - for stdin (e.g. toolrun mcp check-stdout zwave)');
  const stdin = named === '-';
  if ((stdin || options.file) && (options.call || options.save || words.length > 0)) throw new UsageError('--call, --save and ARGS apply to a server session, not to a capture');
  if (words.length > 0 && !options.call) throw new UsageError(`ARGS (${words[0]}) need --call TOOL`);

  let report: ScanReport;
  let source: Record<string, unknown>;
  let exitCode: number = ExitCode.OK;
  if (options.file !== undefined || stdin) {
    const path = options.file;
    // 256 kB reads: 4x fewer chunks than the default cut the per-chunk overhead by a quarter; larger
    // ones bring no more speed and double the peak memory (measured on a 200 MB capture).
    const describeReadError = (error: NodeJS.ErrnoException): never => {
      if (error.code === 'ENOENT') throw new UsageError(`capture file not found: ${path}; check the path`);
      if (error.code === 'EISDIR') throw new UsageError(`${path} is a folder, not a capture file`);
      if (error.code === 'EACCES') throw new UsageError(`capture file not readable: ${path} (permission denied); fix its permissions`);
      if (error instanceof NotARecordingError) throw new UsageError(`${path ?? 'stdin'}: ${error.message}`);
      throw new UsageError(`cannot read capture file ${path}: ${error.message}`);
    };
    let stream: Readable;
    try {
      stream = path === undefined ? process.stdin : await openInput(path, 1 << 18);
    } catch (error) {
      describeReadError(error as NodeJS.ErrnoException);
    }
    report = await scanStream(stream!).catch(describeReadError);
    source = path === undefined ? { stdin: true } : { file: path };
  } else {
    const opened = await openTools(cli);
    // A command line becomes an entry of the config, named after the command.
    if (commandLine) server = serverOnCommandLine(opened.config, commandLine, true, cli.cwd)!;
    assertServerExists(opened.config, server!);
    const spec = resolveServer(opened.config, opened.config.servers[server!]!, cli.env);
    if (spec.transport !== 'stdio') throw new UsageError(`server '${server}' is remote (${spec.url}): check-stdout replays the stdout of a stdio server`);
    const call = sessionCallOf(options.call, words);
    const recording = options.save === undefined ? undefined : await openRecording(options.save, spec);
    if (recording) {
      cli.onExit(async () => {
        recording.close();
        const { send, recv, stderr } = recording.counts;
        cli.terminal.info(`recorded the session to ${recording.path}: ${send} lines sent, ${recv} received, ${stderr} on stderr`);
      });
    }
    const [{ recordSession }, { askBackFor }] = await Promise.all([import('../check-stdout/record-session.js'), import('../cli-support/ask-back-for.js')]);
    // A server that asks back during --call is answered by this command's flags, and the round recorded (SPEC §15).
    const askBack = askBackFor(cli, opened.config);
    const recorded = await recordSession(spec, {
      policy: opened.config.retry,
      logger: cli.terminal,
      call,
      recording,
      askBack,
      signal: cli.signal,
      timeoutMs: cli.globals.timeout ?? opened.config.timeoutMs,
    });
    report = recorded.report;
    source = { server, steps: recorded.steps, ...(recorded.sessionError ? { session_error: recorded.sessionError } : {}) };
    if (recorded.failure) {
      const { formatConnectFailure } = await import('../output/format-connect-failure.js');
      cli.terminal.note(formatConnectFailure(recorded.failure, cli.terminal.errStyle));
      source.unreachable = recorded.failure.reason;
      exitCode = ExitCode.UNREACHABLE;
    }
    if (recorded.sessionError) cli.terminal.warn(`the session did not complete: ${recorded.sessionError}`);
  }
  if (exitCode === ExitCode.OK && report.summary.pollutingLines > 0) exitCode = ExitCode.FAILURE;
  if (cli.globals.json) await cli.terminal.resultJson({ source, ...scanReportJson(report) });
  else await cli.terminal.result(formatScanReport(report, cli.terminal.outStyle, { sessionFailed: exitCode === ExitCode.UNREACHABLE }));
  return exitCode;
}

/** --save's recording, opened before the server starts: a path that cannot be written is a usage error now. */
async function openRecording(path: string, spec: StdioServerSpec) {
  const [{ RecordingWriter }, { explainWriteError }] = await Promise.all([import('../record/recording.js'), import('../cli-support/explain-write-error.js')]);
  try {
    return new RecordingWriter(path, spec.name, [spec.command, ...spec.args].join(' '));
  } catch (error) {
    throw new UsageError(`cannot write --save ${path}: ${explainWriteError(error)}`, { cause: error });
  }
}
