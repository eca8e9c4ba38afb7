import type { ServerSpec } from '../config/resolve-server.js';
import { ERROR_LIKE_LINE } from '../mcp/stderr-log.js';
import { FIX_ADVICE, KIND_INFO } from '../scan/finding-kinds.js';
import type { StdoutScanner } from '../scan/stdout-scanner.js';
import type { SetStep } from './set-step.js';

/** Steps 5 and 6 of doctor: what the server wrote to stdout (the pollution scan) and to stderr. */

export function reportStdout(spec: ServerSpec, scanner: StdoutScanner, set: SetStep): void {
  if (spec.transport !== 'stdio') return set('stdout', 'skip', 'remote server: no stdout to check');
  const report = scanner.end();
  const { lines, messages, pollutingLines, warningLines } = report.summary;
  const details = report.findings.slice(0, 5).map((finding) => `line ${finding.line}, byte ${finding.offset}: ${finding.kind}  ${JSON.stringify(finding.text)}`);
  if (report.findings.length > 5) details.push(`… ${report.findings.length - 5} more (toolrun mcp check-stdout ${spec.name} lists them all)`);
  const data = { lines, messages, polluting_lines: pollutingLines, findings: report.findings.slice(0, 50) };
  if (pollutingLines > 0) {
    const kinds = Object.keys(report.summary.byKind).join(', ');
    return set('stdout', 'fail', `${pollutingLines} of ${lines} lines are not clean JSON-RPC (${kinds})`, { details, fix: FIX_ADVICE, data });
  }
  if (lines === 0) return set('stdout', 'ok', 'nothing written', { data });
  if (warningLines > 0)
    return set('stdout', 'warn', `${lines} lines, ${messages} JSON-RPC messages; ${warningLines} with warnings (${Object.keys(report.summary.byKind).join(', ')})`, {
      details,
      fix: KIND_INFO.crlf.summary,
      data,
    });
  set('stdout', 'ok', `${lines} line${lines === 1 ? '' : 's'}, all JSON-RPC`, { data });
}

/** What doctor knows of a server's stderr: every line counted and matched, the tail to show. */
export interface StderrSummary {
  /** The last lines, shortened for display. */
  tail: string[];
  lineCount: number;
  errorLikeCount: number;
  /** Fixes for the causes the cause table found in any line. */
  fixes: string[];
}

export function reportStderr(spec: ServerSpec, summary: StderrSummary, set: SetStep): void {
  if (spec.transport !== 'stdio') return set('stderr', 'skip', 'remote server: no stderr to read');
  const { tail, lineCount, errorLikeCount, fixes } = summary;
  const marked = tail.map((line) => (ERROR_LIKE_LINE.test(line) ? `! ${line}` : `  ${line}`));
  const data = { lines: tail, line_count: lineCount, error_lines: errorLikeCount };
  if (lineCount === 0) return set('stderr', 'ok', 'nothing written', { data });
  const count = `${lineCount} line${lineCount === 1 ? '' : 's'}${tail.length < lineCount ? ` (the last ${tail.length} shown)` : ''}`;
  if (errorLikeCount > 0 || fixes.length > 0)
    return set('stderr', 'warn', `${count}, ${errorLikeCount} error-like (marked ! where shown)`, { details: marked, fix: fixes.join('; ') || undefined, data });
  set('stderr', 'ok', `${count}, no errors`, { details: marked, data });
}
