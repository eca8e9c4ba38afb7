import { Writable } from 'node:stream';
import type { AskBackFlags, CliContext } from '../cli-support/cli-context.js';
import type { AskBack } from '../mcp/ask-back.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { Terminal } from '../output/terminal.js';

/**
 * The holder's own answers, from the ask-back flags `session start` was given (SPEC §15), made the
 * way a command makes its own (ask-back-for.ts) — with no terminal: what it would say goes to the
 * holder's log. Used when no command is attached, or the command has no answer of that kind.
 */
export async function holderOwnAskBack(
  flags: AskBackFlags,
  config: Pick<ToolrunConfig, 'roots' | 'path' | 'timeoutMs'>,
  env: NodeJS.ProcessEnv,
  cwd: string,
  logLine: (text: string) => void,
): Promise<AskBack> {
  const toLog = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logLine(line);
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  const terminal = await Terminal.create({ json: false, verbose: false, quiet: false, noColorFlag: true, env, stdout: toLog, stderr: toLog });
  const cli: CliContext = {
    globals: { json: false, verbose: false, quiet: false, color: false, terminalEnv: false, session: false, cache: true, askBack: flags },
    terminal,
    env,
    cwd,
    signal: new AbortController().signal,
    readStdin: () => Promise.reject(new Error('a session holder has no stdin')),
    onExit: () => {},
  };
  const { askBackFor } = await import('../cli-support/ask-back-for.js');
  // The config's roots too: its servers offer them to every command, as a cold start would.
  return askBackFor(cli, config);
}
