/**
 * The session holder's own executable (dist/session-holder.js), started by `toolrun session start`
 * (start-holder.ts) — and, with `--reap`, the watcher that ends its servers if it is killed
 * (reaper.ts). Built apart from the CLI: the holder is one long-lived process, and its modules
 * kept out of the CLI's graph leave every command's startup as it was.
 *
 *   session-holder.js (--config FILE | --host NAME[:SCOPE] [--terminal-env]) [--protocol V] --idle MS [SERVER...]   (ask-back flags as JSON in $TOOLRUN_HOLDER_ASK_BACK)
 *   session-holder.js --reap
 */
import { fileURLToPath } from 'node:url';
import type { AskBackFlags } from '../cli-support/cli-context.js';

const argv = process.argv.slice(2);
// Each role loads only its own modules: the reaper lives as long as its holder, and loading the
// holder's graph (the SDK, the engine) cost it ~0.3 s of CPU and the memory for nothing.
if (argv[0] === '--reap') {
  const { runReaper } = await import('./reaper.js');
  await runReaper();
  process.exit(0);
}
const [{ runHolder }, { HOLDER_ASK_BACK_VARIABLE }] = await Promise.all([import('./run-holder.js'), import('./holder-protocol.js')]);
const value = (flag: string) => {
  const index = argv.indexOf(flag);
  return index >= 0 ? argv.splice(index, 2)[1] : undefined;
};
const configPath = value('--config');
const host = value('--host');
const terminalEnv = argv.includes('--terminal-env') ? argv.splice(argv.indexOf('--terminal-env'), 1).length > 0 : false;
const protocol = value('--protocol');
const idleMs = Number(value('--idle') ?? 600_000);
const askBackFlags = process.env[HOLDER_ASK_BACK_VARIABLE];
// Not for the servers it starts: they inherit this environment.
delete process.env[HOLDER_ASK_BACK_VARIABLE];
try {
  const askBack = askBackFlags === undefined ? undefined : (JSON.parse(askBackFlags) as AskBackFlags);
  await runHolder({ configPath, host, terminalEnv, protocol, servers: argv, idleMs, askBack, env: process.env, cwd: process.cwd(), holderScript: fileURLToPath(import.meta.url) });
} catch (error) {
  // Before the socket is up: said on stderr (the holder's log), and the starting command sees the exit.
  process.stderr.write(`session holder: ${(error as Error).message}\n`);
  process.exit(1);
}
