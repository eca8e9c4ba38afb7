import { Option, type Command } from 'commander';
import { parseTimerMilliseconds } from './parse-number-option.js';
import { parseProtocolSetting } from './parse-protocol-option.js';
import { LOG_LEVELS, parseLogLevel } from './parse-log-level.js';
import { PROTOCOL_SETTINGS } from '../protocol/protocol-era.js';
import type { GlobalOptions } from './cli-context.js';

/** The options every command takes (before the command name): what `toolrun --help` lists first. */
export function addGlobalOptions(program: Command): void {
  program
    .option('-c, --config <path>', 'config file (default: $TOOLRUN_CONFIG, ./toolrun.config.json, or the built-in tools)')
    .option(
      '--host <name[:scope]>',
      `use a host's MCP servers instead of a config: ${'claude-desktop, claude-code, cursor, vscode, windsurf, codex, gemini, zed, cline, roo, continue, opencode'} (scope: user, project or local; default: all, merged as the host does)`,
    )
    .option('--terminal-env', 'with --host: start stdio servers with your environment, PATH and folder instead of as the host starts them')
    .option('--json', 'machine-readable output: exactly one JSON document on stdout')
    .option('-v, --verbose', 'log each execution and server stderr on stderr')
    .option('-q, --quiet', 'only errors on stderr')
    .option('--no-color', 'no ANSI colors (also NO_COLOR=1)')
    .addOption(new Option('--timeout <ms>', 'per-call timeout in ms (default 30000)').argParser(parseTimerMilliseconds))
    .addOption(new Option('--protocol <version>', `MCP protocol revision for every server: auto (default) or ${PROTOCOL_SETTINGS.slice(1).join(', ')}`).argParser(parseProtocolSetting))
    .addOption(new Option('--log-level <level>', `ask servers that log for this level and above: ${LOG_LEVELS.join(', ')} (logging/setLevel; per request in 2026-07-28)`).argParser(parseLogLevel))
    .addOption(new Option('--trace-parent <traceparent>', "continue a caller's W3C trace (also TRACEPARENT): every request carries it in _meta and the traceparent header").helpGroup('Tracing:'))
    .addOption(new Option('--otlp <url>', "export the command's spans over OTLP/HTTP to this collector (also OTEL_EXPORTER_OTLP_ENDPOINT)").helpGroup('Tracing:'))
    .option('--no-session', 'start servers here even when a session holder keeps them warm (toolrun session)')
    .option('--no-cache', 'do not use the caches: the tool index (which server offers a plain tool name) and the configs already found valid')
    .addOption(askBackOption('--answer <field=value>', "answer a server's elicitation field, typed by its schema (repeatable)").argParser(collect))
    .addOption(askBackOption('--answers <file>', `answer elicitations from a JSON file of rounds, in order: [{"action":"accept","content":{…}}, …]`))
    .addOption(
      askBackOption(
        '--elicit <action>',
        'answer every elicitation: accept (defaults plus --answer values), decline or cancel; with none of these toolrun asks on a terminal, else declines (at most 20 per command)',
      ).choices(['accept', 'decline', 'cancel']),
    )
    .addOption(askBackOption('--sampling-reply <text>', 'advertise sampling and answer every sampling request with TEXT'))
    .addOption(askBackOption('--sampling <file>', 'advertise sampling and answer the requests in order from FILE (a JSON array of texts or results)'))
    .addOption(askBackOption('--sampling-command <cmd>', 'advertise sampling and run CMD for each request: the request JSON on its stdin, the reply (text or a JSON result) on its stdout'))
    .addOption(askBackOption('--root <dir>', 'advertise roots and offer DIR as one (repeatable)').argParser(collect));
}

/** The global options as parsed, with their defaults. */
export function readGlobals(program: Command): GlobalOptions {
  const options = program.opts<{
    config?: string;
    host?: string;
    terminalEnv?: boolean;
    json?: boolean;
    verbose?: boolean;
    quiet?: boolean;
    color?: boolean;
    timeout?: number;
    protocol?: string;
    logLevel?: string;
    traceParent?: string;
    otlp?: string;
    session?: boolean;
    cache?: boolean;
    answer?: string[];
    answers?: string;
    elicit?: 'accept' | 'decline' | 'cancel';
    samplingReply?: string;
    sampling?: string;
    samplingCommand?: string;
    root?: string[];
  }>();
  return {
    config: options.config,
    host: options.host,
    terminalEnv: options.terminalEnv === true,
    json: options.json === true,
    verbose: options.verbose === true,
    quiet: options.quiet === true,
    color: options.color !== false,
    timeout: options.timeout,
    protocol: options.protocol,
    logLevel: options.logLevel as GlobalOptions['logLevel'],
    traceParent: options.traceParent,
    otlp: options.otlp,
    session: options.session !== false,
    cache: options.cache !== false,
    askBack: {
      answer: options.answer ?? [],
      answers: options.answers,
      elicit: options.elicit,
      samplingReply: options.samplingReply,
      sampling: options.sampling,
      samplingCommand: options.samplingCommand,
      root: options.root ?? [],
    },
  };
}

/** The options of SPEC §15, grouped apart in --help. */
function askBackOption(flags: string, description: string): Option {
  return new Option(flags, description).helpGroup('Servers that ask back (elicitation, sampling, roots):');
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
