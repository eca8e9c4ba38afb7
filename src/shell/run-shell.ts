import { createInterface } from 'node:readline';
import { isatty } from 'node:tty';
import type { CliContext } from '../cli-support/cli-context.js';
import { elicitFor } from '../cli-support/elicit-for.js';
import { samplingFor } from '../cli-support/sampling-for.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { ExitCode, ToolrunError } from '../errors.js';
import type { AskBack } from '../mcp/ask-back.js';
import { formatConnectFailure } from '../output/format-connect-failure.js';
import { Terminal } from '../output/terminal.js';
import { completeShellLine } from './complete-shell-line.js';
import { MAX_SHELL_LINE_BYTES } from './check-shell-line.js';
import { InlineAsker } from './inline-asker.js';
import { LineLimit } from './line-limit.js';
import { PromptOutput } from './prompt-output.js';
import { historyPath, HISTORY_LINES, ShellHistory } from './shell-history.js';
import { holdServersForShell, releaseShellHolder } from './shell-holder.js';
import { ShellSession } from './shell-session.js';

const PROMPT = 'toolrun> ';

/**
 * `toolrun shell [SERVER…]` (SPEC §17): a session on a holder's live connections (started for the
 * shell when none runs, ended with it then). On a terminal: a line editor with Tab completion,
 * history and inline questions; Ctrl-C cancels the running call, Ctrl-D leaves. Piped: the lines of
 * stdin run one by one, results on stdout, no prompt; the exit code is the last failing line's (0
 * when none failed).
 */
export async function runShell(cli: CliContext, config: ToolrunConfig, servers: string[]): Promise<number> {
  const holder = await holdServersForShell(cli, config, servers);
  cli.onExit(() => releaseShellHolder(holder));
  for (const failure of holder.failures) cli.terminal.note(formatConnectFailure(failure, cli.terminal.errStyle));
  const interactive = isatty(0) && isatty(1);
  return interactive ? runInteractive(cli, config, holder) : runScripted(cli, config, holder);
}

async function runScripted(cli: CliContext, config: ToolrunConfig, holder: Awaited<ReturnType<typeof holdServersForShell>>): Promise<number> {
  const scriptedAskBack: AskBack = { elicit: elicitFor(cli, false), sample: samplingFor(cli, config.timeoutMs, false) };
  const session = new ShellSession(cli, config, holder, cli.terminal, async () => scriptedAskBack);
  await session.refreshTools();
  session.follow();
  let exitCode: number = ExitCode.OK;
  const lines = createInterface({ input: process.stdin, terminal: false, crlfDelay: Infinity });
  for await (const line of lines) {
    if (cli.signal.aborted) break;
    const outcome = await session.run(line, cli.signal);
    if (outcome === 'exit') break;
    if (outcome === 'refused') exitCode = ExitCode.USAGE;
    else if (outcome !== ExitCode.OK) exitCode = outcome;
  }
  lines.close();
  return exitCode;
}

async function runInteractive(cli: CliContext, config: ToolrunConfig, holder: Awaited<ReturnType<typeof holdServersForShell>>): Promise<number> {
  const history = new ShellHistory(historyPath(cli.env));
  const output = new PromptOutput(process.stdout);
  const terminal = await Terminal.create({
    json: false,
    verbose: cli.globals.verbose,
    quiet: cli.globals.quiet,
    noColorFlag: !cli.globals.color,
    env: cli.env,
    stdout: output.streamFor(process.stdout),
    stderr: output.streamFor(process.stderr),
  });
  // A history that is not this user's (a link, another user's HOME under sudo) is off, said once here.
  const loaded = history.load();
  if (loaded.problem) terminal.warn(loaded.problem);
  const input = new LineLimit(MAX_SHELL_LINE_BYTES);
  // readline sets raw mode only on a TTY input; this one is the limiter in front of the terminal.
  process.stdin.setRawMode(true);
  process.stdin.pipe(input);
  cli.onExit(async () => {
    process.stdin.unpipe(input);
    process.stdin.setRawMode(false);
    process.stdin.pause();
  });
  const rl = createInterface({
    input,
    output: process.stdout,
    terminal: true,
    history: loaded.lines,
    historySize: HISTORY_LINES,
    removeHistoryDuplicates: true,
    // The session is made below (it needs the asker, which needs this readline); Tab comes later.
    completer: (line: string) => completeShellLine(line, session),
  });
  output.attach(rl);
  const asker = new InlineAsker(rl, output, process.stderr);
  const flags = cli.globals.askBack;
  const scripted = flags.answer.length > 0 || flags.answers !== undefined || flags.elicit !== undefined;
  const askBack: AskBack = {
    elicit: scripted ? elicitFor(cli, false) : asker.elicit,
    sample: samplingFor(cli, config.timeoutMs, false) ?? asker.sample,
  };
  const session = new ShellSession(cli, config, holder, terminal, async () => askBack);
  // Bracketed paste: a pasted Ctrl-A or arrow key is text, not a key (readline drops it inside a paste).
  process.stdout.write('\x1b[?2004h');
  cli.onExit(async () => void process.stdout.write('\x1b[?2004l'));
  await session.refreshTools();
  session.follow();
  terminal.info(
    `toolrun shell: ${session.servers().join(', ')} (${session.tools().length} tools${holder.startedHere ? '' : `, on the running session holder pid ${holder.status.pid}`}); help lists the commands, Tab completes, Ctrl-D leaves`,
  );

  const queue: string[] = [];
  let running: AbortController | undefined;
  let draining = false;
  let closed = false;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  const idle = () => {
    rl.setPrompt(PROMPT);
    rl.prompt(true);
  };
  const drain = async () => {
    if (draining) return;
    draining = true;
    while (queue.length > 0 && !closed) {
      const line = queue.shift()!;
      running = new AbortController();
      rl.setPrompt('');
      const outcome = await session.run(line, AbortSignal.any([running.signal, cli.signal]), input.lastCutBytes);
      running = undefined;
      if (outcome === 'exit') {
        rl.close();
        break;
      }
      if (outcome === 'refused') {
        // Not in history: the line readline just kept, nor the file.
        const index = (rl as unknown as { history: string[] }).history.indexOf(line);
        if (index >= 0) (rl as unknown as { history: string[] }).history.splice(index, 1);
      } else {
        const problem = history.add(line);
        if (problem) terminal.warn(problem);
      }
    }
    draining = false;
    if (!closed) idle();
  };
  rl.on('line', (line) => {
    if (asker.asking) {
      // An answer to a server's question: never history (it may be a secret), never a command.
      const kept = (rl as unknown as { history: string[] }).history;
      if (kept[0] === line) kept.shift();
      return asker.answer(line);
    }
    queue.push(line);
    void drain();
  });
  rl.on('SIGINT', () => {
    if (running) return running.abort(new ToolrunError('interrupted', 'cancelled (Ctrl-C)'));
    if (rl.line) {
      // Like a shell: the line is dropped, a fresh prompt.
      rl.write(null, { ctrl: true, name: 'e' });
      rl.write(null, { ctrl: true, name: 'u' });
      return;
    }
    terminal.info('(Ctrl-D or exit leaves the shell)');
  });
  rl.on('close', () => {
    closed = true;
    running?.abort(new ToolrunError('interrupted', 'the shell was left'));
    finish();
  });
  idle();
  await done;
  process.stdout.write('\n');
  history.trim();
  return ExitCode.OK;
}
