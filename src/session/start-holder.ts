import { bundleFile } from '../files/bundle-file.js';
import { HOLDER_ASK_BACK_VARIABLE } from './holder-protocol.js';
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { AskBackFlags } from '../cli-support/cli-context.js';
import { ToolrunError } from '../errors.js';
import type { HolderReady } from './run-holder.js';
import { sessionFiles } from './session-paths.js';

export interface StartHolderOptions {
  configPath: string;
  /** `--host NAME[:SCOPE]` (and `--terminal-env`): the holder builds its config from the host's files, as the command did. */
  host?: string;
  terminalEnv?: boolean;
  protocol?: string;
  servers: string[];
  idleMs: number;
  /** `session start`'s ask-back flags (`--root`, `--sampling-reply`, …), handed to the holder as JSON in HOLDER_ASK_BACK_VARIABLE. */
  askBack?: AskBackFlags;
  env: NodeJS.ProcessEnv;
  cwd: string;
  dir: string;
  key: string;
  signal: AbortSignal;
}

/**
 * Starts a holder in the background (its own process session: the terminal's Ctrl-C and closing
 * the terminal do not reach it) and waits for the line it writes once its servers are connected.
 * Its later diagnostics go to its log file in the session directory.
 */
export async function startHolder(options: StartHolderOptions): Promise<HolderReady> {
  const log = openSync(sessionFiles(options.dir, options.key).log, 'a', 0o600);
  // The holder's own bundle, in dist/ (scripts/build.js), for the CLI and the library's runCli alike.
  const holderScript = bundleFile('session-holder.js');
  const source = options.host ? ['--host', options.host, ...(options.terminalEnv ? ['--terminal-env'] : [])] : ['--config', options.configPath];
  const args = [holderScript, ...source, ...(options.protocol ? ['--protocol', options.protocol] : []), '--idle', String(options.idleMs), ...options.servers];
  // In the environment, not the command line: --answer values may be secrets, and any user can read a command line (ps).
  const env = options.askBack ? { ...options.env, [HOLDER_ASK_BACK_VARIABLE]: JSON.stringify(options.askBack) } : options.env;
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'pipe', log], env, cwd: options.cwd });
  const onAbort = () => child.kill('SIGTERM');
  options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const exited = new Promise<never>((_, reject) =>
      child.once('close', (code, signal) =>
        reject(new ToolrunError('unreachable', `the session holder exited while starting (${signal ?? `code ${code}`}); see ${sessionFiles(options.dir, options.key).log}`)),
      ),
    );
    const failedToStart = new Promise<never>((_, reject) => child.once('error', (error) => reject(new ToolrunError('unreachable', `the session holder could not be started: ${error.message}`))));
    const firstLine = (async () => {
      for await (const line of createInterface({ input: child.stdout! })) return JSON.parse(line) as HolderReady;
      return await new Promise<never>(() => {});
    })();
    return await Promise.race([firstLine, exited, failedToStart]);
  } finally {
    options.signal.removeEventListener('abort', onAbort);
    child.stdout?.destroy();
    child.unref();
  }
}
