import { maskArgs, maskNamedValue, maskSecrets } from '../secrets/mask-secrets.js';
import { quoteShellWord } from '../text/quote-shell-word.js';
import { entryFailed, type ComposedLaunch, type LaunchVerdict, type VerifyEntry, type VerifyFinding, type VerifyReport } from '../verify/verify-types.js';
import { spelledOut } from './format-lint-report.js';
import type { Style } from './style.js';

/**
 * `mcp verify`'s report for a person: per file its verdict line, then per entry its verdict, the
 * command (or URL) a host composes, exactly, with the environment it gives (secrets masked), the
 * launch's outcome with --launch, and each finding with where in the file it is.
 */
export function formatVerifyReports(reports: VerifyReport[], style: Style): string {
  const lines: string[] = [];
  for (const report of reports) {
    const about = [report.name, report.version].filter(Boolean).join(' ');
    const schema = report.schema ? ` (schema ${report.schema})` : '';
    lines.push(style.bold(`${spelledOut(report.file)}: ${report.format}${about ? ` ${spelledOut(about)}` : ''}${schema}`));
    for (const finding of report.findings) lines.push(`  ${findingLine(finding, style)}`);
    for (const entry of report.entries) lines.push(...entryLines(entry, style));
    if (report.entries.length === 0 && report.findings.length === 0) lines.push('  no packages or remotes to verify');
  }
  const entries = reports.flatMap((report) => report.entries);
  const failed = entries.filter(entryFailed).length;
  const fileErrors = reports.filter((report) => report.findings.some((finding) => finding.level === 'error')).length;
  const verdict = `${entries.length - failed} of ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} pass${fileErrors > 0 ? `; ${fileErrors} file${fileErrors === 1 ? '' : 's'} with errors` : ''}`;
  lines.push(failed > 0 || fileErrors > 0 ? style.red(`✖ ${verdict}`) : style.green(`✔ ${verdict}`));
  return lines.join('\n');
}

function entryLines(entry: VerifyEntry, style: Style): string[] {
  const mark = entryFailed(entry) ? style.red('✖') : entry.findings.some((finding) => finding.level === 'warning') ? style.yellow('⚠') : style.green('✔');
  const lines = [`  ${mark} ${entry.id}  ${spelledOut(entry.label)}${entry.composedAs ? style.dim(`  (as ${entry.composedAs.host} composes it)`) : ''}`];
  if (entry.launch) lines.push(...launchLines(entry.launch).map((line) => `      ${line}`));
  if (entry.launched) lines.push(`      ${launchedLine(entry.launched, style)}`);
  for (const line of entry.launched?.stderrTail ?? []) lines.push(style.dim(`        │ ${spelledOut(maskSecrets(line))}`));
  for (const finding of entry.findings) lines.push(`      ${findingLine(finding, style)}`);
  return lines;
}

/** The launch as a command line a shell would run, and its environment, secrets masked. */
export function launchLines(launch: ComposedLaunch): string[] {
  if (launch.transport !== 'stdio') {
    const headers = Object.entries(launch.headers).map(([name, value]) => `header ${spelledOut(name)}: ${spelledOut(maskNamedValue(name, value))}`);
    return [`${launch.transport} ${spelledOut(maskSecrets(launch.url))}`, ...headers];
  }
  const command = [launch.command, ...maskArgs(launch.args)].map((word) => spelledOut(quoteShellWord(maskSecrets(word)))).join(' ');
  const env = Object.entries(launch.env).map(([name, value]) => `env ${spelledOut(name)}=${value === '' ? "''" : spelledOut(quoteShellWord(maskNamedValue(name, value)))}`);
  return [`$ ${command}`, ...env, ...(launch.cwd ? [`cwd ${spelledOut(launch.cwd)}`] : [])];
}

function launchedLine(launched: LaunchVerdict, style: Style): string {
  const seconds = `${(launched.durationMs / 1000).toFixed(1)} s`;
  if (!launched.handshake) return style.red(`launch failed (${seconds}): ${spelledOut(maskSecrets(launched.error ?? 'no answer to initialize'))}`);
  const info = [launched.serverInfo?.name, launched.serverInfo?.version].filter(Boolean).join(' ');
  const parts = [`handshake ok${info ? ` (${spelledOut(info)}, ${launched.protocolVersion ?? '?'})` : ''}`];
  if (launched.tools !== undefined) parts.push(`${launched.tools} tool${launched.tools === 1 ? '' : 's'}`);
  if (launched.conform) parts.push(`conform ${launched.conform.passed} pass, ${launched.conform.failed} fail, ${launched.conform.warnings} warn`);
  if (launched.lint) parts.push(`lint ${launched.lint.errors} error${launched.lint.errors === 1 ? '' : 's'}, ${launched.lint.warnings} warning${launched.lint.warnings === 1 ? '' : 's'}`);
  if (launched.error) parts.push(spelledOut(maskSecrets(launched.error)));
  const text = `launched (${seconds}): ${parts.join(' · ')}`;
  return (launched.conform?.failed ?? 0) > 0 ? style.red(text) : text;
}

function findingLine(finding: VerifyFinding, style: Style): string {
  const level = finding.level === 'error' ? style.red('error  ') : finding.level === 'warning' ? style.yellow('warning') : style.dim('note   ');
  const where = finding.path ? `${spelledOut(finding.path)}: ` : '';
  return `${level} ${where}${spelledOut(maskSecrets(finding.message))} ${style.dim(`[${finding.rule}]`)}`;
}
