import { parseArgWords, type ArgWord } from '../args/parse-tool-args.js';
import type { CliContext } from '../cli-support/cli-context.js';
import { printExecOutcome, shapeOutcome, type ExecOutcome } from '../cli-support/exec-output.js';
import { readFileSync, statSync } from 'node:fs';
import { findConfigPath } from '../config/find-config-path.js';
import { showProgress } from '../cli-support/show-progress.js';
import { splitToolName } from '../cli-support/tool-arguments.js';
import { describeThrown, ExitCode, ToolrunError } from '../errors.js';
import { Terminal } from '../output/terminal.js';
import type { GlobalOptions } from '../cli-support/cli-context.js';
import { sessionKeyOf } from './session-key.js';
import { execThroughHolder } from './warm-exec.js';

/** The words of a `toolrun exec` the warm path understands (fast-exec.ts parses them). */
export interface FastExecArgs extends Pick<GlobalOptions, 'config' | 'json' | 'verbose' | 'quiet' | 'color' | 'timeout'> {
  tool: string;
  server?: string;
  words: string[];
  raw: boolean;
  structured: boolean;
  validate: boolean;
}

/**
 * The warm exec of fast-exec.ts: the same steps and output as `toolrun exec` through a holder
 * (exec.ts), without the CLI around it. Undefined (nothing printed) whenever the full CLI must run.
 */
export async function runFastWarmExec(args: FastExecArgs, env: NodeJS.ProcessEnv): Promise<number | undefined> {
  const abort = new AbortController();
  const cleanups: Array<() => Promise<void>> = [];
  const terminal = await Terminal.create({ json: args.json, verbose: args.verbose, quiet: args.quiet, noColorFlag: !args.color, env, stdout: process.stdout, stderr: process.stderr });
  const cli: CliContext = {
    globals: {
      config: args.config,
      json: args.json,
      verbose: args.verbose,
      quiet: args.quiet,
      color: args.color,
      timeout: args.timeout,
      session: true,
      cache: true,
      terminalEnv: false,
      askBack: { answer: [], root: [] },
    },
    terminal,
    env,
    cwd: process.cwd(),
    signal: abort.signal,
    readStdin: () => Promise.reject(new Error('no stdin on the warm path')),
    onExit: (cleanup) => cleanups.push(cleanup),
  };
  let interrupted: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (abort.signal.aborted) process.exit(interrupted ?? ExitCode.INTERRUPTED);
    interrupted = signal === 'SIGINT' ? ExitCode.INTERRUPTED : signal === 'SIGTERM' ? 143 : 129;
    terminal.error(`✖ interrupted (${signal}); stopping`);
    abort.abort(new ToolrunError('interrupted', `interrupted by ${signal}`));
  };
  let target: ReturnType<typeof splitToolName>;
  try {
    target = splitToolName(args.tool, args.server);
  } catch {
    // SERVER:TOOL and --server naming two servers: the full CLI reports it.
    return undefined;
  }
  const startedAt = process.hrtime.bigint();
  try {
    // The config is not parsed here: the holder has it, and the key is made from its text. A config
    // tool of this name (local) is the holder's to notice: it answers "miss" and the full CLI runs it.
    let words: ArgWord[];
    let key: string;
    try {
      words = parseArgWords(args.words);
      const { path } = findConfigPath(args.config, env, cli.cwd);
      // A FIFO or device config is read once, by the full CLI.
      if (!path || !statSync(path).isFile()) return undefined;
      key = sessionKeyOf(path, readFileSync(path, 'utf8').replace(/^\uFEFF/, ''), env, undefined);
    } catch {
      return undefined;
    }
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
    const progress = await showProgress(cli, target.server ? `${target.server}:${target.name}` : target.name);
    let outcome: ExecOutcome;
    try {
      const envelope = await execThroughHolder(cli, { key }, { name: target.name, server: target.server, words, baseArgs: {}, validate: args.validate, onProgress: progress.onProgress, quiet: true });
      progress.stop();
      if (!envelope) return interrupted;
      outcome = await shapeOutcome(envelope, args);
    } catch (error) {
      progress.stop();
      if (!(error instanceof ToolrunError)) throw error;
      const execution_time_ms = Math.round(Number(process.hrtime.bigint() - startedAt) / 10_000) / 100;
      outcome = { envelope: { success: false, error: describeThrown(error), error_kind: error.kind, tool_name: args.tool, execution_time_ms } };
    }
    const code = await printExecOutcome(terminal, args.json, outcome, args);
    return interrupted ?? code;
  } finally {
    await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(signal, onSignal);
  }
}
