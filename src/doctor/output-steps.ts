import type { ServerSpec } from '../config/resolve-server.js';
import { ERROR_LINES_KEPT, isErrorLike } from '../mcp/causes/stderr-log.js';
import { FIX_ADVICE, KIND_INFO } from '../scan/finding-kinds.js';
import type { StdoutScanner } from '../scan/stdout-scanner.js';
import type { SetStep } from './set-step.js';
import { toolrunCommand } from '../text/quote-shell-word.js';

/** Steps 5 and 6 of doctor: what the server wrote to stdout (the pollution scan) and to stderr. */

export function reportStdout(spec: ServerSpec, scanner: StdoutScanner, set: SetStep): void {
  if (spec.transport !== 'stdio') return set('stdout', 'skip', 'remote server: no stdout to check');
  const report = scanner.end();
  const { lines, messages, pollutingLines, warningLines } = report.summary;
  const details = report.findings.slice(0, 5).map((finding) => `line ${finding.line}, byte ${finding.offset}: ${finding.kind}  ${JSON.stringify(finding.text)}`);
  if (report.findings.length > 5) details.push(`… ${report.findings.length - 5} more (${toolrunCommand('mcp', 'check-stdout', spec.name)} lists them all)`);
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
  /** Error-like lines written before the tail (distinct, bounded): shown too, so a counted error is never hidden. */
  earlierErrorLines: string[];
  lineCount: number;
  errorLikeCount: number;
  /** Fixes for the causes the cause table found in any line. */
  fixes: string[];
  /** More distinct error-like lines came than are kept: not every one is shown. */
  earlierCapped?: boolean;
  /** The server failed to connect: its stderr is the evidence, whatever it says. */
  serverFailed?: boolean;
}

export function reportStderr(spec: ServerSpec, summary: StderrSummary, set: SetStep): void {
  if (spec.transport !== 'stdio') return set('stderr', 'skip', 'remote server: no stderr to read');
  const { tail, earlierErrorLines: earlier, lineCount, errorLikeCount, fixes } = summary;
  const mark = (line: string) => (isErrorLike(line) ? `! ${line}` : `  ${line}`);
  const hidden = lineCount - tail.length;
  const details = [
    ...earlier.map(mark),
    ...(earlier.length > 0 && hidden > earlier.length ? [`  … (${hidden - earlier.length} more line${hidden - earlier.length === 1 ? '' : 's'} not shown)`] : []),
    ...tail.map(mark),
  ];
  const data = { lines: tail, earlier_error_lines: earlier, line_count: lineCount, error_lines: errorLikeCount };
  if (lineCount === 0) return set('stderr', 'ok', 'nothing written', { data });
  const shown = tail.length < lineCount ? ` (the last ${tail.length} shown${earlier.length > 0 ? `, and ${earlier.length} error-like before them` : ''})` : '';
  const count = `${lineCount} line${lineCount === 1 ? '' : 's'}${shown}`;
  if (errorLikeCount > 0 || fixes.length > 0)
    return set('stderr', 'warn', `${count}, ${errorLikeCount} error-like (marked !${summary.earlierCapped ? `; the first ${ERROR_LINES_KEPT} distinct shown` : ''})`, {
      details,
      fix: fixes.join('; ') || undefined,
      data,
    });
  // Nothing looks like an error, but the server failed: its last words are still the best clue.
  if (summary.serverFailed) return set('stderr', 'warn', `${count}, none error-like; the server failed to start: read them`, { details, data });
  set('stderr', 'ok', `${count}, no errors`, { details, data });
}
