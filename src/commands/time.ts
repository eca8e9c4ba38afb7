import type { Command } from 'commander';
import { parseArgWords } from '../args/parse-tool-args.js';
import { describeThrown, ExitCode } from '../errors.js';
import { formatTimingReport, type TimingReport } from '../output/format-timing-report.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { isConnectionLost } from '../mcp/connection-lost.js';
import { computeStats } from '../timing/latency-stats.js';
import { groupErrors, runTimedCalls } from '../timing/run-timed-calls.js';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { openTools } from './support/open-tools.js';
import { parseNonNegativeInteger, parsePositiveInteger, parsePositiveNumber } from '../cli-support/parse-number-option.js';
import { resolveTool } from './support/resolve-tool.js';
import { buildArguments, splitToolName, type ToolArgumentOptions } from '../cli-support/tool-arguments.js';
import { resolveOutputPath } from '../cli-support/output-file-path.js';
import { writeOutputFile } from '../cli-support/write-output-file.js';
import { maskArgs } from '../secrets/mask-secrets.js';
import { quoteShellWord } from '../text/quote-shell-word.js';

interface TimeOptions extends ToolArgumentOptions {
  n: number;
  warmup: number;
  concurrency: number;
  maxP95?: number;
  allowErrors?: boolean;
  html?: string;
}

export function registerTimeCommand(program: Command, run: CommandRunner): void {
  program
    .command('time')
    .description('measure a tool: connect phases once, then N calls on one connection; latency percentiles, calls/s, errors')
    .argument('<tool>', 'tool name, or SERVER:TOOL')
    .argument('[args...]', 'key=value (typed by the schema) or key:=json')
    .option('-n, --iterations <count>', 'measured calls', parsePositiveInteger, 20)
    .option('--warmup <count>', 'calls before measuring', parseNonNegativeInteger, 2)
    .option('--concurrency <count>', 'calls in flight at once, on the one connection', parsePositiveInteger, 1)
    .option('--max-p95 <ms>', 'exit 1 when p95 is over this budget (for CI)', parsePositiveNumber)
    .option('--allow-errors', 'exit 0 even when some calls fail')
    .option('--args <json>', 'arguments as JSON, @file.json, or - for stdin')
    .option('--server <name>', 'use the tool of this MCP server, and start only that server')
    .option('--no-validate', 'send the arguments without checking them (they are checked once otherwise)')
    .option('--html <file>', 'also write the report as a self-contained HTML page (histogram, percentiles, latency over the run)')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun time get_current_datetime -n 10000
  $ toolrun time math_eval expression='sqrt(2)' -n 200 --warmup 5
  $ toolrun --config home.json time control_zwave_device deviceName='Switch One' action=on -n 50 --json
  $ toolrun time everything:get-sum a=2 b=3 -n 500 --concurrency 8 --max-p95 20
  $ toolrun time get_current_datetime -n 1000 --html latency.html

Percentiles interpolate linearly between the closest ranks (rank = p/100 × (n−1)).
Exit: 0 ok · 1 a call failed (unless --allow-errors) or p95 over --max-p95 · 2 bad arguments (nothing run) · 4 server unreachable`,
    )
    .action((toolName: string, words: string[], options: TimeOptions & { iterations: number }) =>
      run(async (cli) => {
        const htmlPath = options.html === undefined ? undefined : resolveOutputPath(cli.cwd, '--html', options.html);
        const target = splitToolName(toolName, options.server, 'time');
        const parsedWords = parseArgWords(words);
        const opened = await openTools(cli, { likelyTool: target.server ? undefined : target.name, useSession: true });
        const tool = await resolveTool(opened, target.name, target.server);
        const args = await buildArguments(cli, tool, parsedWords, options.args, opened.config.paramMappings);
        // Validated once, before the first call: a bad argument exits 2 with nothing run.
        const prepared = await opened.executor.prepare(tool, args, { validate: options.validate });
        const iterations = options.iterations;
        const progress = await cli.terminal.startSpinner(`0/${iterations} calls`);
        cli.onExit(async () => {
          progress?.stop();
        });
        let lastUpdate = 0;
        const serverStatus = tool.server ? opened.registry.servers.get(tool.server) : undefined;
        const connection = serverStatus?.status === 'connected' ? serverStatus.connection : undefined;
        const loop = {
          iterations,
          warmup: options.warmup,
          concurrency: options.concurrency,
          signal: cli.signal,
          onProgress: progress
            ? (done: number) => {
                const now = Date.now();
                if (now - lastUpdate > 100 || done === iterations) {
                  lastUpdate = now;
                  progress.update(`${done}/${iterations} calls`);
                }
              }
            : undefined,
        };
        // A holder's server is timed in the holder, beside its connection (SPEC §12).
        const inHolder = connection?.viaSession ? await (await import('../session/holder-time.js')).timeThroughHolder(cli, opened.config, prepared, loop) : undefined;
        const result = inHolder ?? (await runTimedCalls(opened.executor, prepared, { ...loop, isFatal: connection ? () => isConnectionLost(connection) : undefined }));
        progress?.stop();
        const status = serverStatus;
        const report: TimingReport = {
          tool: tool.definition.name,
          source: tool.source,
          ...(tool.server ? { server: tool.server } : {}),
          phases: status?.status === 'connected' ? phasesOf(status.connection) : {},
          iterations,
          warmup: options.warmup,
          concurrency: options.concurrency,
          stats: computeStats(result.durations, result.errorCount, result.wallMs),
          ...errorGroups(result.errors),
          ...(result.stoppedBy ? { stopped: `stopped after ${result.calls} of ${iterations} calls: ${result.stoppedBy}` } : {}),
          durations_ms: result.durations.map((ms) => Math.round(ms * 1000) / 1000),
          slow_tool_ms: opened.executor.slowToolMs,
          ...(options.maxP95 !== undefined ? { max_p95: options.maxP95 } : {}),
        };
        const overBudget = options.maxP95 !== undefined && report.stats.p95 > options.maxP95;
        const failed = result.errorCount > 0 && !options.allowErrors;
        // Interrupted: the report of the calls made so far, saying so (SPEC §8), not a normal report.
        const interrupted = cli.signal.aborted ? { success: false, error: `${describeThrown(cli.signal.reason)} after ${result.calls} of ${iterations} calls`, error_kind: 'interrupted' } : {};
        if (htmlPath) {
          const { renderTimingHtml } = await import('../output/html/render-timing-html.js');
          // The whole command line as typed (options too: -n, --concurrency, --config), so the page says how to run it again.
          const given = cli.argv?.slice(2) ?? ['time', toolName, ...words];
          const command = ['toolrun', ...maskArgs(given)].map(quoteShellWord).join(' ');
          await writeOutputFile(htmlPath, Buffer.from(renderTimingHtml(report, command)));
        }
        if (cli.globals.json) await cli.terminal.resultJson({ ...interrupted, ...report, budget_exceeded: overBudget });
        else await cli.terminal.result(formatTimingReport(report, cli.terminal.outStyle));
        return overBudget || failed ? ExitCode.FAILURE : ExitCode.OK;
      }),
    );
}

function phasesOf(connection: ServerConnection): Record<string, number> {
  const { spawnMs, initializeMs, listToolsMs } = connection.timings;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  // A session holder's server was started long ago: what this run paid is asking the holder.
  if (connection.viaSession) return { session_ms: round(connection.viaSession.ms) };
  // The handshake under its real name: initialize (2025 family) or server/discover (2026-07-28).
  const modern = connection.timings.handshake === 'server/discover';
  if (connection.transportKind === 'stdio')
    return { spawn_ms: round(spawnMs ?? 0), [modern ? 'server_discover_ms' : 'initialize_ms']: round(initializeMs - (spawnMs ?? 0)), tools_list_ms: round(listToolsMs) };
  return { [modern ? 'connect_discover_ms' : 'connect_ms']: round(initializeMs), tools_list_ms: round(listToolsMs) };
}

function errorGroups(errors: Map<string, number>): Pick<TimingReport, 'errors' | 'other_errors'> {
  const { top, other } = groupErrors(errors);
  return other ? { errors: top, other_errors: other } : { errors: top };
}
