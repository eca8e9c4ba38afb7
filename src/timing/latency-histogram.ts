import { percentile } from './latency-stats.js';

/** The calls whose latency fell in [from, to); the last bucket includes `to`. */
export interface LatencyBucket {
  from: number;
  to: number;
  count: number;
}

/**
 * Durations in equal-width buckets from the fastest call to p99, plus one last bucket p99–max when
 * slower calls exist: one 2-second GC pause among 1 ms calls gets its own bar instead of squashing
 * every other bar into the first (as the terminal's sparkline does).
 */
export function latencyHistogram(durations: number[], bins = 20): LatencyBucket[] {
  if (durations.length === 0) return [];
  const sorted = [...durations].sort((a, b) => a - b);
  const min = sorted[0]!;
  const max = sorted.at(-1)!;
  const p99 = percentile(sorted, 99);
  if (max === min) return [{ from: min, to: max, count: sorted.length }];
  const tail = max > p99 && p99 > min;
  const end = tail ? p99 : max;
  const regular = tail ? bins - 1 : bins;
  const width = (end - min) / regular;
  const buckets: LatencyBucket[] = Array.from({ length: regular }, (_, index) => ({ from: min + index * width, to: index === regular - 1 ? end : min + (index + 1) * width, count: 0 }));
  if (tail) buckets.push({ from: p99, to: max, count: 0 });
  for (const value of sorted) {
    if (tail && value > p99) buckets.at(-1)!.count++;
    else buckets[Math.min(regular - 1, Math.floor((value - min) / width))]!.count++;
  }
  return buckets;
}
