import type { Command } from 'commander';
import { MAX_TIMER_MS, MAX_TIMER_TEXT } from '../config/max-timer-ms.js';
import { UsageError } from '../errors.js';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { loadCliConfig } from '../cli-support/load-cli-config.js';
import { assertServerExists } from '../cli-support/assert-server-exists.js';

const DEFAULT_IDLE = '10m';

export function registerSessionCommands(program: Command, run: CommandRunner): void {
  const session = program
    .command('session')
    .description('keep MCP servers warm between commands: exec, time, list, resources and prompts use them')
    .addHelpText(
      'after',
      `
Examples (a CI job that calls one server many times):
  $ toolrun session start everything            # servers connect once, in the background
  $ for i in $(seq 20); do toolrun exec everything:echo message=$i; done
  $ toolrun session list
  $ toolrun session stop                         # ends the holder and its servers

A holder is per user and per config; it exits after being idle (--idle, default ${DEFAULT_IDLE}).
--no-session makes a command start its servers itself.`,
    );

  session
    .command('start')
    .description("start a holder for this config's servers (all, or these), or add them to the running one")
    .argument('[servers...]', 'servers to keep warm (default: every configured server)')
    .option('--idle <duration>', `exit after this long without a request: 90s, 10m, 1h (default ${DEFAULT_IDLE})`, DEFAULT_IDLE)
    .addHelpText('after', '\nExamples:\n  $ toolrun session start\n  $ toolrun --config home.json session start zwave --idle 1h')
    .action((servers: string[], options: { idle: string }) =>
      run(async (cli) => {
        const { parseDuration } = await import('../session/parse-duration.js');
        const idleMs = parseDuration(options.idle);
        if (idleMs === undefined) throw new UsageError(`--idle '${options.idle}' is not a duration; use e.g. 90s, 10m or 1h`);
        if (idleMs > MAX_TIMER_MS) throw new UsageError(`--idle '${options.idle}' is longer than ${MAX_TIMER_TEXT}; use e.g. 90s, 10m or 1h`);
        const config = await loadCliConfig(cli);
        if (Object.keys(config.servers).length === 0 || !config.path)
          throw new UsageError(`no MCP servers are configured${config.path ? ` in ${config.path}` : ' (no config file found; pass --config)'}: there is nothing to keep warm`);
        for (const name of servers) assertServerExists(config, name);
        const { startSession } = await import('../session/session-commands.js');
        return startSession(cli, config, servers, idleMs);
      }),
    );

  session
    .command('list')
    .description("this user's holders: config, servers, uptime, calls, idle time")
    .addHelpText('after', '\nExamples:\n  $ toolrun session list\n  $ toolrun --json session list')
    .action(() =>
      run(async (cli) => {
        const { listSessions } = await import('../session/session-commands.js');
        return listSessions(cli);
      }),
    );

  session
    .command('stop')
    .description("end this config's holder (or only these servers of it); --all ends every holder of this user")
    .argument('[servers...]', 'servers to stop (default: the whole holder)')
    .option('--all', 'every holder of this user, whatever its config')
    .addHelpText('after', '\nExamples:\n  $ toolrun session stop\n  $ toolrun session stop everything\n  $ toolrun session stop --all')
    .action((servers: string[], options: { all?: boolean }) =>
      run(async (cli) => {
        if (options.all && servers.length > 0) throw new UsageError('--all stops every holder: name no servers with it');
        const { stopSessions } = await import('../session/session-commands.js');
        if (options.all) return stopSessions(cli, undefined, []);
        const config = await loadCliConfig(cli);
        for (const name of servers) assertServerExists(config, name);
        return stopSessions(cli, config, servers);
      }),
    );
}
