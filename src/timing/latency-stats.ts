/** Statistics of a set of call durations, in ms. */
export interface LatencyStats {
  count: number;
  ok: number;
  errors: number;
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  /** Population standard deviation. */
  stddev: number;
  /** Completed calls per second of wall time (with --concurrency, calls overlap). */
  calls_per_second: number;
}

/**
 * The p-th percentile (0–100) of sorted values, by linear interpolation between the closest ranks
 * (numpy's default, Excel's PERCENTILE.INC): rank = p/100 × (n − 1).
 */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

/**
 * Latency stats over the successful calls' durations; failed calls are counted apart (a call that
 * failed in 0.01 ms on a dead connection is not a latency), and in calls/s.
 */
export function computeStats(successDurations: number[], errors: number, wallMs: number): LatencyStats {
  const sorted = [...successDurations].sort((a, b) => a - b);
  const ok = sorted.length;
  const count = ok + errors;
  const mean = ok ? sorted.reduce((sum, value) => sum + value, 0) / ok : NaN;
  const variance = ok ? sorted.reduce((sum, value) => sum + (value - mean) ** 2, 0) / ok : NaN;
  return {
    count,
    ok,
    errors,
    min: sorted[0] ?? NaN,
    mean,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[ok - 1] ?? NaN,
    stddev: Math.sqrt(variance),
    calls_per_second: wallMs > 0 ? (count / wallMs) * 1000 : NaN,
  };
}

const BARS = '▁▂▃▄▅▆▇█';

/**
 * A one-line histogram of the durations: `bins` buckets from min to p99 (the rare slowest calls go
 * in the last bucket, so one GC pause does not squash the picture), bar height ∝ count.
 */
export function sparkline(durations: number[], bins = 24): string {
  if (durations.length === 0) return '';
  const sorted = [...durations].sort((a, b) => a - b);
  const min = sorted[0]!;
  const max = percentile(sorted, 99);
  const width = (max - min) / bins || 1;
  const counts = new Array<number>(bins).fill(0);
  for (const value of durations) counts[Math.min(bins - 1, Math.floor((value - min) / width))]!++;
  const top = Math.max(...counts);
  return counts.map((count) => (count === 0 ? ' ' : BARS[Math.min(BARS.length - 1, Math.floor((count / top) * (BARS.length - 1)))])).join('');
}
