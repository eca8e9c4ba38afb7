import type { LatencyStats } from '../timing/latency-stats.js';
import { sparkline } from '../timing/latency-stats.js';
import type { Style } from './style.js';

export interface TimingReport {
  tool: string;
  source: string;
  server?: string;
  phases: Record<string, number>;
  iterations: number;
  warmup: number;
  concurrency: number;
  stats: LatencyStats;
  /** The most frequent error messages, with their counts. */
  errors: Record<string, number>;
  /** The other distinct messages, counted together. */
  other_errors?: { distinct: number; calls: number };
  /** Set when the run ended early because the server died. */
  stopped?: string;
  durations_ms: number[];
  slow_tool_ms: number;
  max_p95?: number;
}

export const PHASE_LABELS: Record<string, string> = {
  spawn_ms: 'spawn',
  initialize_ms: 'initialize',
  server_discover_ms: 'server/discover',
  tools_list_ms: 'tools/list',
  connect_ms: 'connect + initialize',
  connect_discover_ms: 'connect + server/discover',
  session_ms: 'from the session holder',
};

export function formatMsShort(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

/** The compact human report of `toolrun time`. */
export function formatTimingReport(report: TimingReport, style: Style): string {
  const { stats } = report;
  const origin = report.server ? `mcp:${report.server}` : report.source;
  const lines = [
    style.bold(`${report.tool}`) + style.dim(` (${origin}) · ${report.iterations} calls after ${report.warmup} warm-up${report.warmup === 1 ? '' : 's'} · concurrency ${report.concurrency}`),
  ];
  const phases = Object.entries(report.phases).map(([key, ms]) => `${PHASE_LABELS[key] ?? key} ${formatMsShort(ms)} ms`);
  if (phases.length) lines.push(`phases   ${phases.join(' · ')}`);
  lines.push(`calls    ${stats.ok} ok · ${stats.errors} error${stats.errors === 1 ? '' : 's'} · ${stats.calls_per_second.toFixed(1)} calls/s`);
  const f = formatMsShort;
  lines.push(
    `latency  min ${f(stats.min)} · p50 ${f(stats.p50)} · p90 ${f(stats.p90)} · p95 ${f(stats.p95)} · p99 ${f(stats.p99)} · max ${f(stats.max)} · mean ${f(stats.mean)} · stddev ${f(stats.stddev)} ms`,
  );
  if (report.durations_ms.length > 1) lines.push(`         ${style.cyan(sparkline(report.durations_ms))}  ${f(stats.min)} … ${f(stats.p99)} ms (p99)`);
  for (const [message, count] of Object.entries(report.errors)) lines.push(style.red(`error    ${count}× ${message}`));
  if (report.other_errors) lines.push(style.red(`error    ${report.other_errors.calls}× in ${report.other_errors.distinct} other distinct message${report.other_errors.distinct === 1 ? '' : 's'}`));
  if (report.stopped) lines.push(style.red(`stopped  ${report.stopped}`));
  if (stats.p50 > report.slow_tool_ms) lines.push(style.yellow(`slow     p50 ${f(stats.p50)} ms is over slowToolMs (${report.slow_tool_ms} ms)`));
  if (report.max_p95 !== undefined) {
    const over = stats.p95 > report.max_p95;
    lines.push(over ? style.red(`budget   ✖ p95 ${f(stats.p95)} ms exceeds --max-p95 ${report.max_p95} ms`) : style.green(`budget   ✔ p95 ${f(stats.p95)} ms within --max-p95 ${report.max_p95} ms`));
  }
  return lines.join('\n');
}
