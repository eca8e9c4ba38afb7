/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * The 95% Wilson score interval of a pass rate (E. B. Wilson, 1927; the form in
 * https://en.wikipedia.org/wiki/Binomial_proportion_confidence_interval#Wilson_score_interval):
 * unlike the normal approximation it stays within 0..1 and says something at 0/n and n/n.
 */
export function wilsonInterval(passed: number, runs: number): { low: number; high: number } {
  if (runs === 0) return { low: 0, high: 1 };
  const rate = passed / runs;
  const z2 = Z95 * Z95;
  const centre = (rate + z2 / (2 * runs)) / (1 + z2 / runs);
  const half = (Z95 / (1 + z2 / runs)) * Math.sqrt((rate * (1 - rate)) / runs + z2 / (4 * runs * runs));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
