import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { parseArgWords, type ArgWord } from '../args/parse-tool-args.js';
import { UsageError } from '../errors.js';
import { splitCommandWords } from '../input/split-words.js';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import { resolveOutputPath } from '../cli-support/output-file-path.js';
import { parseTimerMilliseconds } from '../cli-support/parse-number-option.js';
import { assertServerExists } from '../cli-support/assert-server-exists.js';
import { loadCliConfig } from '../cli-support/load-cli-config.js';
import { hasDoubleDash, serverOnCommandLine } from '../cli-support/server-on-command-line.js';

interface ConformOptions {
  profile: string;
  call?: string[];
  callAll?: boolean;
  junit?: string;
  html?: string;
  deadline?: number;
  trace?: boolean;
  tracePort?: number;
}

/** Per request when --timeout is not given: a check waits this long for one answer. */
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_DEADLINE_MS = 120_000;
/** How long a stdio server has to exit after its stdin closes (the shutdown check). */
const SHUTDOWN_GRACE_MS = 2000;

export function registerMcpConformCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('conform')
    .description('check a server against the MCP spec: every frame against the official schema, lifecycle, capabilities, tools, resources, prompts, errors, stdout purity')
    .argument('[server...]', 'the server to check: a configured name (default: the only one), a URL, or -- COMMAND [ARGS...]')
    .option('--profile <name@version>', 'the profile of checks (scores stay comparable across toolrun versions)', 'toolrun@2')
    .option('--call <tool-and-args...>', 'also call TOOL with ARGS (key=value, key:=json); repeat --call for more tools (calls have side effects)')
    .option('--call-all', 'call every tool, with arguments generated from its input schema (calls have side effects)')
    .option('--junit <file>', 'also write a JUnit XML report (one testcase per check)')
    .option('--html <file>', 'also write the report as a self-contained HTML page')
    .option('--deadline <ms>', `the whole run's time limit (default ${DEFAULT_DEADLINE_MS})`, parseTimerMilliseconds)
    .option(
      '--trace',
      "also check that the server's exported spans continue toolrun's trace (an OTLP receiver runs for the check; a stdio server is started with OTEL_EXPORTER_OTLP_ENDPOINT pointing to it)",
    )
    .option('--trace-port <port>', 'with --trace: the port the OTLP receiver listens on, on 127.0.0.1 (default: any free port); point an HTTP server there', parseTracePort)
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun mcp conform everything
  $ toolrun mcp conform everything --call echo message=hi --call get-sum a:=1 b:=2
  $ toolrun mcp conform http://127.0.0.1:3000/mcp
  $ toolrun mcp conform -- node server.js
  $ toolrun --config ci.json mcp conform api --call-all --junit conform.xml
  $ toolrun --config ci.json mcp conform api --html conform.html
  $ toolrun --config ci.json --json mcp conform api | jq '.checks[] | select(.verdict != "pass")'
  $ toolrun mcp conform --trace -- node server.js
  $ OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4319 node server.js --http & toolrun mcp conform http://127.0.0.1:3000/mcp --trace --trace-port 4319

Name the server before --call: each --call takes a tool and the key=value words after it
(or one quoted word holding both: --call "echo message='hi there'").
--timeout is the limit per request (default ${DEFAULT_REQUEST_TIMEOUT_MS} ms here).
Exit codes: 0 every check passed (warnings allowed) · 1 a check failed · 2 bad usage · 3 config · 4 unreachable`,
    )
    .action((words: string[], options: ConformOptions, command: Command) => run((cli) => conform(cli, words, hasDoubleDash(command), options)));
}

async function conform(cli: CliContext, words: string[], dashed: boolean, options: ConformOptions): Promise<number> {
  const [{ findProfile, profileNames }] = await Promise.all([import('../conform/profiles.js')]);
  const profile = findProfile(options.profile);
  if (!profile) throw new UsageError(`unknown profile '${options.profile}'; known: ${profileNames().join(', ')}`);
  const calls = groupCalls(options.call ?? []);
  const junitPath = options.junit === undefined ? undefined : resolve(cli.cwd, options.junit);
  if (junitPath && !existsSync(dirname(junitPath))) throw new UsageError(`--junit ${options.junit}: the folder ${dirname(junitPath)} does not exist`);
  const htmlPath = options.html === undefined ? undefined : resolveOutputPath(cli.cwd, '--html', options.html);
  const config = await loadCliConfig(cli);
  let server = serverOnCommandLine(config, words, dashed, cli.cwd);
  const configured = Object.keys(config.servers);
  if (server) assertServerExists(config, server);
  else if (configured.length === 1) server = configured[0]!;
  else if (configured.length === 0) throw new UsageError(`no MCP servers are configured${config.path ? ` in ${config.path}` : ' (no config file found; pass --config)'}`);
  else throw new UsageError(`several servers are configured (${configured.join(', ')}): name one`);
  const { resolveServer } = await import('../config/resolve-server.js');
  const spec = resolveServer(config, config.servers[server]!, cli.env);
  if (spec.transport === 'sse') throw new UsageError(`${server} uses the SSE transport (2024-11-05); mcp conform checks stdio and Streamable HTTP servers`);

  if (options.tracePort !== undefined && !options.trace) throw new UsageError('--trace-port is for --trace; add --trace');
  let receiver: import('../trace/otlp-receiver.js').OtlpReceiver | undefined;
  if (options.trace) {
    const { OtlpReceiver } = await import('../trace/otlp-receiver.js');
    try {
      receiver = await OtlpReceiver.start(options.tracePort ?? 0);
    } catch (error) {
      throw new UsageError(
        `--trace: the OTLP receiver cannot listen on 127.0.0.1:${options.tracePort ?? 0} (${(error as { code?: string }).code ?? (error as Error).message}); choose another --trace-port`,
      );
    }
    const opened = receiver;
    cli.onExit(() => opened.close());
    if (spec.transport !== 'stdio') cli.terminal.info(`OTLP receiver for --trace on ${receiver.url}: the server must export its spans there (OTEL_EXPORTER_OTLP_ENDPOINT=${receiver.url})`);
  }
  const spinner = await cli.terminal.startSpinner(`${server}: starting`);
  cli.onExit(async () => spinner?.stop());
  const { runConform } = await import('../conform/run-conform.js');
  const report = await runConform({
    spec,
    profile,
    calls,
    callAll: options.callAll === true,
    timeoutMs: cli.globals.timeout ?? DEFAULT_REQUEST_TIMEOUT_MS,
    deadlineMs: options.deadline ?? DEFAULT_DEADLINE_MS,
    graceMs: SHUTDOWN_GRACE_MS,
    signal: cli.signal,
    trace: receiver,
    onCheck: (result) => {
      spinner?.update(`${server}: ${result.id} ${result.verdict}`);
      cli.terminal.verbose(`${result.id}: ${result.verdict} — ${result.message}`);
    },
  });
  spinner?.stop();
  const { conformExitCode } = await import('../conform/conform-types.js');
  const { writeConformOutputs } = await import('../cli-support/conform-outputs.js');
  await writeConformOutputs(cli, report, junitPath, htmlPath);
  return conformExitCode(report);
}

function parseTracePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) throw new InvalidArgumentError('a port from 1 to 65535');
  return port;
}

/**
 * `--call echo message=hi --call add a:=1`: commander gathers every word of every --call in one
 * list; a word without `=` starts a new call (ARGS are always key=value or key:=json), so the tool
 * names split it again. The words are parsed now: a malformed one is exit 2 before a server starts.
 */
/**
 * One argument holding a whole call (`--call "echo message='hi there'"`, as the GitHub Action passes
 * each line of its `calls` input) is split into words as a shell would, quotes and all.
 */
function splitQuotedCall(word: string): string[] {
  const tool = word.trimStart().split(/\s/, 1)[0]!;
  if (!/\s/.test(word.trim()) || tool.includes('=')) return [word];
  const split = splitCommandWords(word);
  if (typeof split === 'string') throw new UsageError(`--call ${JSON.stringify(word)}: ${split}`);
  return split;
}

export function groupCalls(words: string[]): { tool: string; words: ArgWord[] }[] {
  const calls: { tool: string; words: string[] }[] = [];
  for (const word of words.flatMap(splitQuotedCall)) {
    if (!word.includes('=')) calls.push({ tool: word, words: [] });
    else if (calls.length === 0) throw new UsageError(`--call ${word}: name the tool first (--call TOOL key=value)`);
    else calls.at(-1)!.words.push(word);
  }
  return calls.map((call) => ({ tool: call.tool, words: parseArgWords(call.words) }));
}
