import { describe, expect, it } from 'vitest';
import { computeStats, percentile, sparkline } from '../../src/timing/latency-stats.js';

describe('latency statistics', () => {
  it('interpolates percentiles between the closest ranks', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(sorted, 50)).toBe(5.5);
    expect(percentile(sorted, 90)).toBeCloseTo(9.1, 10);
    expect(percentile(sorted, 0)).toBe(1);
    expect(percentile(sorted, 100)).toBe(10);
    expect(percentile([42], 95)).toBe(42);
    expect(percentile([], 50)).toBeNaN();
  });

  it('computes the stats of a known sample', () => {
    const stats = computeStats([4, 2, 8, 6], 1, 2000);
    expect(stats).toMatchObject({ count: 5, ok: 4, errors: 1, min: 2, mean: 5, p50: 5, max: 8, stddev: Math.sqrt(5), calls_per_second: 2.5 });
    expect(stats.p90).toBeCloseTo(7.4, 10);
    expect(stats.p95).toBeCloseTo(7.7, 10);
    expect(stats.p99).toBeCloseTo(7.94, 10);
  });

  it('draws a histogram from min to p99', () => {
    expect(sparkline([1, 1, 1, 2], 2)).toBe('█▃');
    expect(sparkline([5, 5, 5], 3)).toHaveLength(3);
    expect(sparkline([])).toBe('');
  });
});
