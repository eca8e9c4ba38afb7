import type { Command } from 'commander';
import { ExitCode } from '../errors.js';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { readRecordingFile } from '../cli-support/read-recording-file.js';
import { resolveStdioTarget } from '../cli-support/stdio-target.js';

/** `toolrun mcp replay FILE (SERVER | -- COMMAND…)` (SPEC §11): a recorded session as a regression test. */
export function registerMcpReplayCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('replay')
    .description('start the server fresh, send the recorded client messages, and compare each response with the recorded one; exit 0 same, 1 differences, 4 unreachable')
    .argument('<file>', 'a recording (check-stdout --save, mcp tap --record)')
    .argument('<server-or-command...>', 'a configured server, or -- COMMAND [ARGS...]')
    .option('--ignore <path...>', 'response fields that may differ, e.g. result.serverInfo.version (* matches any key or index)', [])
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun mcp tap --record session.rec -- node server.js        # record once, in a host
  $ toolrun mcp replay session.rec -- node server.js               # in CI: exit 1 if a response changed
  $ toolrun --config home.json mcp replay zwave.rec zwave --ignore result.serverInfo.version

Ids, "jsonrpc", _meta and ISO timestamps never count as differences.`,
    )
    .action((file: string, words: string[], options: { ignore: string[] }, command: Command) =>
      run(async (cli) => {
        const target = await resolveStdioTarget(cli, words, command, 'mcp replay replays a stdio session');
        const timeoutMs = cli.globals.timeout ?? target.timeoutMs;
        const { readScript, replay } = await import('../record/replay.js');
        const script = await readRecordingFile(file, readScript);
        const outcome = await replay(script, target, { ignore: options.ignore, timeoutMs: timeoutMs ?? 30_000, signal: cli.signal });
        const changed = outcome.requests.filter((request) => !request.same);
        if (cli.globals.json) await cli.terminal.resultJson({ same: !outcome.unreachable && changed.length === 0, ...outcome });
        else {
          const style = cli.terminal.outStyle;
          const lines = outcome.requests.map((request) => {
            if (request.server_request) return `${request.same ? style.green('✔') : style.red('✖')} ${request.method} (asked by the server): ${request.server_request}`;
            if (request.same) return `${style.green('✔')} ${request.method} #${request.id}`;
            if (request.unanswered) return `${style.red('✖')} ${request.method} #${request.id}: ${request.unanswered}`;
            const shown = request.differences.slice(0, 5).map((difference) => `    ${difference.path}: recorded ${JSON.stringify(difference.recorded)}, now ${JSON.stringify(difference.now)}`);
            if (request.differences.length > 5) shown.push(`    … ${request.differences.length - 5} more`);
            return [`${style.red('✖')} ${request.method} #${request.id}: ${request.differences.length} difference${request.differences.length === 1 ? '' : 's'}`, ...shown].join('\n');
          });
          const responses = outcome.requests.filter((request) => !request.server_request).length;
          if (!outcome.unreachable) lines.push(changed.length === 0 ? `same: ${responses} responses as recorded` : `${changed.length} of ${outcome.requests.length} responses differ`);
          if (lines.length > 0) await cli.terminal.result(lines.join('\n'));
          if (outcome.unreachable) cli.terminal.error(`✖ the replay did not complete: ${outcome.unreachable}`);
        }
        if (outcome.unreachable) return ExitCode.UNREACHABLE;
        return changed.length === 0 ? ExitCode.OK : ExitCode.FAILURE;
      }),
    );
}
