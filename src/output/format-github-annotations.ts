import type { CheckResult, ConformReport } from '../conform/conform-types.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import { escapeControls } from './escape-controls.js';
import { profileName } from './format-conform-report.js';

/** The Actions UI shows ten annotations of each kind per step; past that a line says where the rest are. */
const MAX_PER_KIND = 10;
/** Evidence lines per annotation: enough to act on; the JUnit file has all of them. */
const MAX_EVIDENCE = 3;

/**
 * `mcp conform` inside GitHub Actions (GITHUB_ACTIONS=true, SPEC §16): one `::error` per failed check
 * and one `::warning` per warned one, so they show on the run's summary page. No file or line: a
 * check is about the server, not about a file of the repository.
 *
 * Printed on stderr: the runner reads workflow commands from both streams (actions/runner
 * src/Runner.Worker/Handlers/ScriptHandler.cs gives stdout and stderr each an OutputManager, whose
 * OnDataReceived hands every `::` line to the ActionCommandManager), and stdout stays results only.
 */
export function formatGithubAnnotations(report: ConformReport): string[] {
  const profile = profileName(report);
  if (report.unreachable !== undefined) {
    return [command('error', `${profile}: ${report.server} unreachable`, report.unreachable)];
  }
  const lines: string[] = [];
  for (const [verdict, kind] of [
    ['fail', 'error'],
    ['warn', 'warning'],
  ] as const) {
    const results = report.checks.filter((result) => result.verdict === verdict);
    for (const result of results.slice(0, MAX_PER_KIND)) lines.push(command(kind, `${profile}: ${result.id}`, annotationMessage(result)));
    if (results.length > MAX_PER_KIND) {
      lines.push(command(kind, profile, `${results.length - MAX_PER_KIND} more ${verdict === 'fail' ? 'failed' : 'warned'} checks: see the JUnit report or --json`));
    }
  }
  return lines;
}

function annotationMessage(result: CheckResult): string {
  const evidence = result.evidence
    .slice(0, MAX_EVIDENCE)
    .map((item) => `${item.detail}${item.path === undefined ? '' : ` (at ${item.path})`}${item.line === undefined ? '' : ` (stdout line ${item.line})`}`);
  return [`${result.title}: ${result.message}`, ...evidence, `spec: ${result.section}`].join('\n');
}

/** `::KIND title=T::MESSAGE`, on one line whatever the server wrote. */
function command(kind: 'error' | 'warning', title: string, message: string): string {
  return `::${kind} title=${escapeProperty(clean(title))}::${escapeData(clean(message))}`;
}

/** Secrets masked, terminal controls spelled out (a CR would otherwise hide the start of the line in the log). */
function clean(text: string): string {
  return escapeControls(maskSecrets(text));
}

/**
 * The runner's own rules (actions/toolkit packages/core/src/command.ts, the runner's
 * ActionCommand.cs): in the message `%`, CR and LF are percent-encoded, so a server's newline can
 * never start a command line of its own; in a property `:` and `,` too, which end the property.
 */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
