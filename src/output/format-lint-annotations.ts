import type { LintReport } from '../lint/lint-types.js';
import type { LocateFinding } from './format-lint-sarif.js';
import { spelledOut } from './format-lint-report.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import { escapeData, escapeProperty } from './format-github-annotations.js';

/** The Actions UI shows ten annotations of each kind per step. */
const MAX_PER_KIND = 10;

/** In GitHub Actions: `::error file=…,line=…` per error-level finding and `::warning` per warning, at the tool's line. */
export function lintAnnotations(report: LintReport, locate: LocateFinding): string[] {
  const lines: string[] = [];
  for (const [severity, kind] of [
    ['error', 'error'],
    ['warning', 'warning'],
  ] as const) {
    for (const finding of report.findings.filter((item) => item.severity === severity).slice(0, MAX_PER_KIND)) {
      const location = locate(finding);
      const title = `toolrun lint ${finding.rule}: ${finding.server}${finding.tool === undefined ? '' : `/${finding.tool}`}`;
      const properties = [...(location ? [`file=${escapeProperty(location.uri)}`, `line=${location.line}`] : []), `title=${escapeProperty(clean(title))}`].join(',');
      lines.push(`::${kind} ${properties}::${escapeData(clean(`${finding.path}: ${finding.message}. Fix: ${finding.fix}`))}`);
    }
  }
  return lines;
}

function clean(text: string): string {
  return spelledOut(maskSecrets(text));
}
