// A cell's level on its own, for a published figure to be tested against (verdicts/judge-figures.js): one cell's
// typical value (the geometric mean, a t interval on the logs, as a ratio's sides are read), and what one more of an
// axis adds between two cells (the difference of their means, Welch's interval). Pinned against SciPy in
// test/unit/stats/level-interval.test.js.
import { ALPHA } from './ratio.js';
import { quantileT } from './t-interval.js';

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const variance = (values) => {
  const centre = mean(values);
  return values.reduce((sum, value) => sum + (value - centre) ** 2, 0) / (values.length - 1);
};

/**
 * The geometric mean of positive values with its (1 − alpha) interval: exp(mean ± t · sd / √n) of the logs.
 * @param {number[]} values
 * @returns {{ estimate: number, low: number, high: number, n: number }|null}  low/high NaN below 2 values; null
 *   when no value is positive
 */
export function intervalOfLevel(values, alpha = ALPHA) {
  const logs = values.filter((value) => value > 0).map(Math.log);
  if (logs.length === 0) return null;
  const centre = mean(logs);
  if (logs.length < 2) return { estimate: Math.exp(centre), low: Number.NaN, high: Number.NaN, n: 1 };
  const half = quantileT(alpha, logs.length - 1) * Math.sqrt(variance(logs) / logs.length);
  return { estimate: Math.exp(centre), low: Math.exp(centre - half), high: Math.exp(centre + half), n: logs.length };
}

/**
 * mean(b) − mean(a) with Welch's (1 − alpha) interval.
 * @param {number[]} a
 * @param {number[]} b
 * @returns {{ estimate: number, low: number, high: number, n_a: number, n_b: number }|null}  null without a value on
 *   a side; low/high NaN below 2 on one
 */
export function intervalOfDifference(a, b, alpha = ALPHA) {
  const [x, y] = [a, b].map((values) => values.filter(Number.isFinite));
  if (x.length === 0 || y.length === 0) return null;
  const estimate = mean(y) - mean(x);
  const base = { estimate, n_a: x.length, n_b: y.length };
  if (x.length < 2 || y.length < 2) return { ...base, low: Number.NaN, high: Number.NaN };
  const [vx, vy] = [variance(x) / x.length, variance(y) / y.length];
  const se = Math.sqrt(vx + vy);
  const df = se === 0 ? Infinity : (vx + vy) ** 2 / (vx ** 2 / (x.length - 1) + vy ** 2 / (y.length - 1));
  const half = se === 0 ? 0 : quantileT(alpha, df) * se;
  return { ...base, low: estimate - half, high: estimate + half };
}
