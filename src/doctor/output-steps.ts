import type { ServerSpec } from '../config/resolve-server.js';
import { inferChecks } from '../mcp/connect-failure.js';
import { FIX_ADVICE, KIND_INFO } from '../scan/finding-kinds.js';
import type { StdoutScanner } from '../scan/stdout-scanner.js';
import type { SetStep } from './set-step.js';

/** Steps 5 and 6 of doctor: what the server wrote to stdout (the pollution scan) and to stderr. */

const ERROR_LINE = /\b(error|exception|traceback|fatal|panic|ECONNREFUSED|EADDRINUSE|ENOENT|cannot find|failed|denied)\b/i;

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
  if (warningLines > 0) return set('stdout', 'warn', `${lines} lines, ${messages} JSON-RPC messages; ${warningLines} with warnings (${Object.keys(report.summary.byKind).join(', ')})`, { details, fix: KIND_INFO.crlf.summary, data });
  set('stdout', 'ok', `${lines} line${lines === 1 ? '' : 's'}, all JSON-RPC`, { data });
}

export function reportStderr(spec: ServerSpec, stderrLines: string[], set: SetStep): void {
  if (spec.transport !== 'stdio') return set('stderr', 'skip', 'remote server: no stderr to read');
  const marked = stderrLines.map((line) => (ERROR_LINE.test(line) ? `! ${line}` : `  ${line}`));
  const errorLines = stderrLines.filter((line) => ERROR_LINE.test(line));
  const checks = inferChecks(stderrLines.join('\n'));
  const data = { lines: stderrLines, error_lines: errorLines.length };
  if (stderrLines.length === 0) return set('stderr', 'ok', 'nothing written', { data });
  const count = `${stderrLines.length} line${stderrLines.length === 1 ? '' : 's'}`;
  if (errorLines.length > 0) return set('stderr', 'warn', `${count}, ${errorLines.length} error-like (marked !)`, { details: marked, fix: checks.join('; ') || undefined, data });
  set('stderr', 'ok', `${count}, no errors`, { details: marked, data });
}

