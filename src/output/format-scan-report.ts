import { FIX_ADVICE, KIND_INFO, type FindingKind } from '../scan/finding-kinds.js';
import type { ScanReport } from '../scan/stdout-scanner.js';
import type { Style } from './style.js';

const number = new Intl.NumberFormat('en-US');

/** `1,204 lines · 1,201 JSON-RPC messages · 3 polluting lines` */
export function formatScanSummary(report: ScanReport): string {
  const { lines, messages, pollutingLines, warningLines } = report.summary;
  const plural = (count: number, word: string) => `${number.format(count)} ${word}${count === 1 ? '' : 's'}`;
  const parts = [plural(lines, 'line'), plural(messages, 'JSON-RPC message'), plural(pollutingLines, 'polluting line')];
  if (warningLines > 0) parts.push(`${plural(warningLines, 'line')} with warnings`);
  return parts.join(' · ');
}

/** The human report: each finding, then what each kind does to clients, the summary and the fix. */
export function formatScanReport(report: ScanReport, style: Style, options: { sessionFailed?: boolean } = {}): string {
  const lines: string[] = [];
  for (const finding of report.findings) {
    const mark = finding.severity === 'error' ? style.red('✖') : style.yellow('⚠');
    lines.push(`${mark} line ${number.format(finding.line)}, byte ${number.format(finding.offset)}: ${style.bold(finding.kind)}  ${JSON.stringify(finding.text)}`);
  }
  if (report.summary.truncated) lines.push(`… and more: only the first ${number.format(report.findings.length)} findings are listed (counts below are complete)`);
  const kinds = Object.entries(report.summary.byKind) as Array<[FindingKind, number]>;
  if (kinds.length > 0) {
    lines.push('');
    for (const [kind, count] of kinds) {
      lines.push(`${kind} (${number.format(count)}): ${KIND_INFO[kind].summary}`);
      lines.push(style.dim(`  ${KIND_INFO[kind].clients}`));
    }
    lines.push('');
  }
  lines.push(formatScanSummary(report));
  if (report.summary.pollutingLines > 0) lines.push(`Fix: ${FIX_ADVICE}`);
  else if (options.sessionFailed) lines.push(report.summary.lines === 0 ? 'The server wrote nothing to stdout before it failed.' : 'No pollution in what the server wrote before it failed.');
  else lines.push(style.green('✔ stdout is clean JSON-RPC'));
  return lines.join('\n');
}

/** The --json document: findings, summary, and what each kind found means. */
export function scanReportJson(report: ScanReport): Record<string, unknown> {
  const kinds = Object.fromEntries(
    (Object.entries(report.summary.byKind) as Array<[FindingKind, number]>).map(([kind, count]) => [
      kind,
      { count, severity: KIND_INFO[kind].severity, summary: KIND_INFO[kind].summary, clients: KIND_INFO[kind].clients },
    ]),
  );
  return {
    clean: report.summary.pollutingLines === 0,
    findings: report.findings,
    summary: {
      lines: report.summary.lines,
      bytes: report.summary.bytes,
      messages: report.summary.messages,
      polluting_lines: report.summary.pollutingLines,
      warning_lines: report.summary.warningLines,
      truncated: report.summary.truncated,
    },
    kinds,
    advice: report.summary.pollutingLines > 0 ? FIX_ADVICE : null,
  };
}
