import type { ConformReport } from '../conform/conform-types.js';
import type { CliContext } from './cli-context.js';
import { writeOutputFile } from './write-output-file.js';

/**
 * Where a conform report goes: the table or --json on stdout, the JUnit and HTML files when asked, and
 * GitHub workflow annotations (on stderr, which the runner reads too) when run in GitHub Actions.
 */
export async function writeConformOutputs(cli: CliContext, report: ConformReport, junitPath: string | undefined, htmlPath?: string): Promise<void> {
  if (junitPath) {
    const { formatConformJunit } = await import('../output/format-conform-junit.js');
    const { hostname } = await import('node:os');
    await writeOutputFile(junitPath, Buffer.from(formatConformJunit(report, { startedAt: new Date(Date.now() - report.durationMs), hostname: hostname() })));
  }
  if (htmlPath) {
    const { renderConformHtml } = await import('../output/html/render-conform-html.js');
    await writeOutputFile(htmlPath, Buffer.from(renderConformHtml(report)));
  }
  if (cli.env.GITHUB_ACTIONS === 'true') {
    const { formatGithubAnnotations } = await import('../output/format-github-annotations.js');
    for (const line of formatGithubAnnotations(report)) cli.terminal.workflowCommand(line);
  }
  if (cli.globals.json) return cli.terminal.resultJson(report);
  const { formatConformReport } = await import('../output/format-conform-report.js');
  await cli.terminal.result(formatConformReport(report, cli.terminal.outStyle));
}
