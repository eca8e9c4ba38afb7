import type { DoctorReport, DoctorStep } from '../doctor/doctor-types.js';
import type { Style } from './style.js';

const MARKS: Record<DoctorStep['status'], (style: Style) => string> = {
  ok: (style) => style.green('✔'),
  warn: (style) => style.yellow('⚠'),
  fail: (style) => style.red('✖'),
  skip: (style) => style.dim('-'),
};

/** One line per step, details and fixes indented under it, then the verdict. */
export function formatDoctorReport(report: DoctorReport, style: Style): string {
  const lines = [style.bold(`toolrun mcp doctor ${report.server}`) + style.dim(` (${report.transport})`)];
  for (const step of report.steps) {
    lines.push(`${MARKS[step.status](style)} ${step.id.padEnd(10)}  ${step.status === 'skip' ? style.dim(step.finding) : step.finding}`);
    for (const detail of step.details) lines.push(style.dim(`    ${detail}`));
    if (step.fix && (step.status === 'fail' || step.status === 'warn')) lines.push(`    ${style.cyan('fix:')} ${step.fix}`);
  }
  lines.push(formatVerdict(report, style));
  return lines.join('\n');
}

export function formatVerdict(report: DoctorReport, style: Style): string {
  const counts = `${report.problems} problem${report.problems === 1 ? '' : 's'}, ${report.warnings} warning${report.warnings === 1 ? '' : 's'} (${report.durationMs} ms)`;
  if (report.verdict === 'healthy') return style.green(`Healthy: ${counts}`);
  if (report.verdict === 'unreachable') return style.red(`Unreachable: ${counts}`);
  return style.red(`Problems found: ${counts}`);
}
