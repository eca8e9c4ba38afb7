import { showHosts } from './commands/support/show-hosts.js';
import { Terminal } from './output/terminal.js';

/**
 * `toolrun hosts` before the CLI is loaded (SPEC §13: it answers in about the time Node takes to
 * start): loading commander and every command's registration costs more than finding the hosts.
 * fast-exec.ts recognises the plain forms (parseFastHosts) and loads this file, built as one
 * CommonJS file (scripts/build.js), only for them. Lists the hosts as `toolrun hosts` does (the
 * same function) and returns the exit code.
 */
export async function runFastHosts(options: { json: boolean; noColor: boolean }, env: NodeJS.ProcessEnv): Promise<number> {
  const terminal = await Terminal.create({ json: options.json, verbose: false, quiet: false, noColorFlag: options.noColor, env });
  return showHosts(terminal, env, process.cwd());
}
