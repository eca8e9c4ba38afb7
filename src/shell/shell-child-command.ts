import { spawn } from 'node:child_process';
import { ExitCode } from '../errors.js';
import type { Terminal } from '../output/terminal.js';

/** The shell commands run as toolrun's own command, in a child toolrun that uses the same holder (SPEC §12). */
export const CHILD_COMMANDS: Record<string, string[]> = {
  resources: ['resources'],
  prompts: ['prompts'],
  read: ['resources', 'read'],
  get: ['prompts', 'get'],
  skills: ['skills'],
  time: ['time'],
  doctor: ['mcp', 'doctor'],
};

/**
 * Runs `toolrun GLOBALS COMMAND WORDS` (resources, prompts, time, doctor…): the same code, output and
 * checks as on the command line, served by the shell's holder like any command run beside it.
 * These are not the shell's hot path; a tool call is (shell-tool-call.ts). Ctrl-C ends the child
 * (SIGINT: it ends what it started, as on the command line). Its stdout is shown escaped on a
 * terminal; its stderr, line by line, through the shell's terminal (above the prompt).
 */
export async function runChildCommand(options: { globals: string[]; command: string[]; terminal: Terminal; env: NodeJS.ProcessEnv; cwd: string; signal: AbortSignal }): Promise<number> {
  const child = spawn(process.execPath, [process.argv[1]!, ...options.globals, ...options.command], { stdio: ['ignore', 'pipe', 'pipe'], env: options.env, cwd: options.cwd });
  const onAbort = () => child.kill('SIGINT');
  options.signal.addEventListener('abort', onAbort, { once: true });
  const stdout: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  let partial = '';
  child.stderr.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop()!;
    for (const line of lines) options.terminal.note(line);
  });
  try {
    const code = await new Promise<number>((resolve) => {
      child.once('error', (error) => {
        options.terminal.error(`✖ could not run toolrun ${options.command.join(' ')}: ${error.message}`);
        resolve(ExitCode.FAILURE);
      });
      child.once('close', (exitCode, signal) => resolve(exitCode ?? (signal === 'SIGINT' ? ExitCode.INTERRUPTED : ExitCode.FAILURE)));
    });
    if (partial) options.terminal.note(partial);
    const text = Buffer.concat(stdout).toString('utf8');
    if (text) await options.terminal.result(text.replace(/\n$/, ''), { verbatim: true });
    return code;
  } finally {
    options.signal.removeEventListener('abort', onAbort);
  }
}
