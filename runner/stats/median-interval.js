// A confidence interval for the median that needs no assumption about the distribution: two order statistics,
// [x(k), x(n−k+1)], whose coverage follows from the binomial distribution with p = 1/2. It exists at 95% only from
// n = 6 on; below that the widest one, [min, max], is returned with its true coverage (75% for n = 3), so a chart
// never claims more than the runs give.
import jstatModule from 'jstat';

const { jStat } = jstatModule;

/**
 * @param {Array<number|null|undefined>} values
 * @param {number} [level]
 * @returns {{ low: number, high: number, coverage: number }|null}  null when n < 2
 */
export function intervalOfMedian(values, level = 0.95) {
  const sorted = values.filter((value) => typeof value === 'number' && Number.isFinite(value)).sort((a, b) => a - b);
  const n = sorted.length;
  if (n < 2) return null;
  // coverage of [x(k), x(n−k+1)] = 1 − 2 · P(Binomial(n, 1/2) ≤ k − 1); the largest k that keeps it ≥ level.
  const coverageOf = (k) => 1 - 2 * jStat.binomial.cdf(k - 1, n, 0.5);
  let k = 1;
  while (k + 1 <= Math.ceil(n / 2) && coverageOf(k + 1) >= level) k += 1;
  return { low: sorted[k - 1], high: sorted[n - k], coverage: coverageOf(k) };
}
