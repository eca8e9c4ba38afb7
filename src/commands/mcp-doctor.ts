import { currentInlineLogin } from '../auth/inline-login.js';
import type { Command } from 'commander';
import type { DoctorReport } from '../doctor/doctor-types.js';
import { describeThrown, ExitCode, UsageError } from '../errors.js';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import { sessionCallOf } from '../cli-support/session-call.js';
import { assertServerExists } from '../cli-support/assert-server-exists.js';
import { openTools } from './support/open-tools.js';
import { loadCliConfig } from '../cli-support/load-cli-config.js';
import { hasDoubleDash, serverOnCommandLine, wordsAfterDash } from '../cli-support/server-on-command-line.js';

interface DoctorOptions {
  all?: boolean;
  call?: string;
  authProbe?: boolean;
}

export function registerMcpDoctorCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('doctor')
    .description('diagnose a server step by step: config, auth (remote servers), spawn, initialize, tools, stdout, stderr, latency, shutdown')
    .argument('[server]', 'the server to diagnose: a configured name (default: the only one), a URL, or -- COMMAND [ARGS...] last')
    .argument('[args...]', 'arguments for --call: key=value or key:=json')
    .option('--all', 'diagnose every configured server')
    .option('--call <tool>', 'also make one real call of this tool (ARGS after the server name)')
    .option(
      '--auth-probe',
      'remote servers behind OAuth: also register a throwaway client and send the authorization and token endpoints a request they must refuse (creates a client at the authorization server)',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun --config home.json mcp doctor zwave
  $ toolrun --config home.json mcp doctor zwave --call control_zwave_device deviceName='Switch One' action=on
  $ toolrun --config home.json mcp doctor --all --json > doctor.json
  $ toolrun --config remote.json mcp doctor linear --auth-probe
  $ toolrun mcp doctor --call echo message=hi -- node server.js

Exit codes: 0 healthy · 1 problems found · 3 the server's config entry does not resolve · 4 unreachable`,
    )
    .action((server: string | undefined, words: string[], options: DoctorOptions, command: Command) =>
      run(async (cli) => {
        // After `--`, the words are the server's command line; the ARGS of --call come before it.
        const positional = server === undefined ? words : [server, ...words];
        const dashed = hasDoubleDash(command);
        const commandLine = dashed ? positional.slice(positional.length - wordsAfterDash(command)) : positional.slice(0, 1);
        const args = dashed ? positional.slice(0, positional.length - commandLine.length) : positional.slice(1);
        return doctor(cli, commandLine, dashed, args, options);
      }),
    );
}

async function doctor(cli: CliContext, serverWords: string[], dashed: boolean, words: string[], options: DoctorOptions): Promise<number> {
  if (words.length > 0 && !options.call) throw new UsageError(`ARGS (${words[0]}) need --call TOOL`);
  if (options.all && serverWords.length > 0) throw new UsageError('give a server name or --all, not both');
  if (options.all && options.call) throw new UsageError('--call applies to one server: name it instead of --all');
  const call = sessionCallOf(options.call, words);
  const config = await loadCliConfig(cli);
  const server = serverOnCommandLine(config, serverWords, dashed, cli.cwd);
  const opened = await openTools(cli, { config });
  const configured = Object.keys(opened.config.servers);
  // A named server is checked first: one that only a host's config has gets the --host command.
  if (server && !options.all) assertServerExists(opened.config, server);
  if (configured.length === 0) throw new UsageError(`no MCP servers are configured${opened.config.path ? ` in ${opened.config.path}` : ' (no config file found; pass --config)'}`);
  let names: string[];
  if (options.all) names = configured;
  else if (server) {
    assertServerExists(opened.config, server);
    names = [server];
  } else if (configured.length === 1) names = configured;
  else throw new UsageError(`several servers are configured (${configured.join(', ')}): name one, or use --all`);

  const [{ runDoctor }, { formatDoctorReport }] = await Promise.all([import('../doctor/run-doctor.js'), import('../output/format-doctor-report.js')]);
  const localToolNames = opened.registry
    .list()
    .filter((tool) => tool.source !== 'mcp')
    .map((tool) => tool.definition.name);
  const spinner = await cli.terminal.startSpinner('starting');
  cli.onExit(async () => {
    spinner?.stop();
  });
  const [{ mapWithLimit, parallelStartLimit }, { askBackFor }] = await Promise.all([import('../process/parallel-starts.js'), import('../cli-support/ask-back-for.js')]);
  const askBack = askBackFor(cli, opened.config);
  // Each diagnosis ends its server: a bounded number at a time keeps --all safe for any config.
  const reports: DoctorReport[] = await mapWithLimit(names, parallelStartLimit(), (name) =>
    runDoctor({
      config: opened.config,
      server: name,
      env: cli.env,
      logger: cli.terminal,
      localToolNames,
      call,
      authProbe: options.authProbe,
      loginInline: currentInlineLogin() !== undefined,
      askBack,
      lookupToken: async (server, url) => {
        const [{ TokenStore }, { storedTokenSummary }] = await Promise.all([import('../auth/token-store.js'), import('../auth/token-summary.js')]);
        const raw = opened.config.servers[server];
        return storedTokenSummary(new TokenStore(cli.env), server, url, raw && raw.transport !== 'stdio' ? raw.oauth?.grant : undefined);
      },
      traceMachineToken: async (spec, hints) => {
        const [{ TokenStore }, { traceMachineTokens }] = await Promise.all([import('../auth/token-store.js'), import('../auth/machine-trace.js')]);
        return traceMachineTokens(new TokenStore(cli.env), spec, hints);
      },
      timeoutMs: cli.globals.timeout ?? opened.config.timeoutMs,
      signal: cli.signal,
      onStep: spinner ? (step) => spinner.update(`${name}: ${step}`) : undefined,
    }),
  );
  spinner?.stop();
  const exitCode = reports.some((report) => report.exitCode === ExitCode.UNREACHABLE)
    ? ExitCode.UNREACHABLE
    : reports.some((report) => report.exitCode === ExitCode.CONFIG)
      ? ExitCode.CONFIG
      : reports.some((report) => report.exitCode !== ExitCode.OK)
        ? ExitCode.FAILURE
        : ExitCode.OK;
  if (cli.globals.json) {
    // Interrupted: the steps that ran, and a document that says it was cut short (SPEC §8).
    const interrupted = cli.signal.aborted ? { success: false, error: describeThrown(cli.signal.reason), error_kind: 'interrupted' } : {};
    await cli.terminal.resultJson(
      options.all ? { ...interrupted, servers: reports, problems: sum(reports, 'problems'), warnings: sum(reports, 'warnings'), exit_code: exitCode } : { ...interrupted, ...reports[0] },
    );
  } else {
    await cli.terminal.result(reports.map((report) => formatDoctorReport(report, cli.terminal.outStyle)).join('\n\n'));
  }
  return exitCode;
}

function sum(reports: DoctorReport[], key: 'problems' | 'warnings'): number {
  return reports.reduce((total, report) => total + report[key], 0);
}
