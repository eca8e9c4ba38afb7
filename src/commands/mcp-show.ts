import type { Command } from 'commander';
import { ExitCode } from '../errors.js';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { resolveOutputPath } from '../cli-support/output-file-path.js';
import { writeOutputFile } from '../cli-support/write-output-file.js';
import { readRecordingFile } from '../cli-support/read-recording-file.js';

/** `toolrun mcp show FILE` (SPEC §11): a recording as a timeline. */
export function registerMcpShowCommand(mcp: Command, run: CommandRunner): void {
  mcp
    .command('show')
    .description('show a recording (check-stdout --save) as a timeline: requests with their responses and latency, notifications, errors, stderr, polluting lines')
    .argument('<file>', 'a recording')
    .option('--html <file>', 'also write the session as a sequence diagram in a self-contained HTML page')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun --config home.json mcp check-stdout zwave --save zwave.rec
  $ toolrun mcp show zwave.rec
  $ toolrun mcp show zwave.rec --html zwave.html
  $ toolrun --json mcp show zwave.rec | jq '.events[] | select(.kind == "response" and .error)'`,
    )
    .action((file: string, options: { html?: string }) =>
      run(async (cli) => {
        const htmlPath = options.html === undefined ? undefined : resolveOutputPath(cli.cwd, '--html', options.html);
        const [{ readTimeline }, { formatTimeline }] = await Promise.all([import('../record/timeline.js'), import('../output/format-timeline.js')]);
        const timeline = await readRecordingFile(file, readTimeline);
        if (htmlPath) {
          const { renderTimelineHtml } = await import('../output/html/render-timeline-html.js');
          await writeOutputFile(htmlPath, Buffer.from(renderTimelineHtml(timeline)));
        }
        if (cli.globals.json) await cli.terminal.resultJson(timeline);
        else await cli.terminal.result(formatTimeline(timeline, cli.terminal.outStyle));
        return ExitCode.OK;
      }),
    );
}
