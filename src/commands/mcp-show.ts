import type { Command } from 'commander';
import { ExitCode } from '../errors.js';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { readRecordingFile } from './read-recording-file.js';

/** `toolrun mcp show FILE` (SPEC §11): a recording as a timeline. */
export function registerMcpShowCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('show')
    .description('show a recording (check-stdout --save) as a timeline: requests with their responses and latency, notifications, errors, stderr, polluting lines')
    .argument('<file>', 'a recording')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun --config home.json mcp check-stdout zwave --save zwave.rec
  $ toolrun mcp show zwave.rec
  $ toolrun --json mcp show zwave.rec | jq '.events[] | select(.kind == "response" and .error)'`,
    )
    .action((file: string) =>
      run(async (cli) => {
        const [{ readTimeline }, { formatTimeline }] = await Promise.all([import('../record/timeline.js'), import('../output/format-timeline.js')]);
        const timeline = await readRecordingFile(file, readTimeline);
        if (cli.globals.json) await cli.terminal.resultJson(timeline);
        else await cli.terminal.result(formatTimeline(timeline, cli.terminal.outStyle));
        return ExitCode.OK;
      }),
    );
}
