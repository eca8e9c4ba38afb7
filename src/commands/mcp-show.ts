import type { Command } from 'commander';
import { ExitCode, UsageError } from '../errors.js';
import { openInput } from '../input/open-input.js';
import type { CommandRunner } from './cli-context.js';

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
        const [{ readTimeline, NotARecordingError }, { formatTimeline }] = await Promise.all([import('../record/timeline.js'), import('../output/format-timeline.js')]);
        let timeline: Awaited<ReturnType<typeof readTimeline>>;
        try {
          timeline = await readTimeline(await openInput(file, 1 << 18));
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') throw new UsageError(`recording not found: ${file}; check the path`);
          if (code === 'EISDIR') throw new UsageError(`${file} is a folder, not a recording`);
          if (code === 'EACCES') throw new UsageError(`recording not readable: ${file} (permission denied)`);
          if (error instanceof NotARecordingError) throw new UsageError(`${file}: ${error.message}`);
          throw error;
        }
        if (cli.globals.json) await cli.terminal.resultJson(timeline);
        else await cli.terminal.result(formatTimeline(timeline, cli.terminal.outStyle));
        return ExitCode.OK;
      }),
    );
}
