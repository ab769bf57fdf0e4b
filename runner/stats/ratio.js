// The ratio B / A of one metric in two cells, with a 95% interval that stays honest at n = 3: Welch's t on the
// logarithms of the values. exp(mean log b − mean log a) is the ratio of GEOMETRIC means; the reports print the
// medians beside it. Logs make the interval multiplicative (0.5 [0.45, 0.56] is as likely as 2 [1.8, 2.2] the
// other way round), carry the uncertainty of both sides, and need no assumption that B's spread equals A's.
import jstatModule from 'jstat';
import { mean, sampleVariance } from 'simple-statistics';

const { jStat } = jstatModule;

/** Two-sided level of every interval and test here: 95% intervals, decisions at 5%. */
export const ALPHA = 0.05;

/**
 * @param {Array<number|null|undefined>} a  the reference sample (non-finite values are left out)
 * @param {Array<number|null|undefined>} b  the sample judged against it
 * @returns {{ n_a: number, n_b: number, ratio: number|null, ci95_low: number|null, ci95_high: number|null,
 *   log: { estimate: number, se: number, df: number|null, sd_a: number, sd_b: number }|null, reason: string|null }}
 *   log: the difference of mean logs, its standard error, Welch–Satterthwaite degrees of freedom (null when se
 *   is 0) and each side's standard deviation of logs; null with a reason when either side has fewer than 2
 *   values or a value ≤ 0 (no logarithm)
 */
export function compareRatio(a, b) {
  const x = finite(a);
  const y = finite(b);
  const base = { n_a: x.length, n_b: y.length, ratio: null, ci95_low: null, ci95_high: null, log: null, reason: null };
  if ([...x, ...y].some((value) => value <= 0))
    return { ...base, reason: 'a value ≤ 0 has no logarithm, so no ratio interval' };
  if (x.length >= 1 && y.length >= 1) base.ratio = Math.exp(mean(y.map(Math.log)) - mean(x.map(Math.log)));
  if (x.length < 2 || y.length < 2) return { ...base, reason: 'fewer than 2 runs on a side: no spread to judge by' };
  const logA = x.map(Math.log);
  const logB = y.map(Math.log);
  const estimate = mean(logB) - mean(logA);
  const va = sampleVariance(logA) / x.length;
  const vb = sampleVariance(logB) / y.length;
  const se = Math.sqrt(va + vb);
  const df = se === 0 ? null : (va + vb) ** 2 / (va ** 2 / (x.length - 1) + vb ** 2 / (y.length - 1));
  const halfwidth = se === 0 ? 0 : jStat.studentt.inv(1 - ALPHA / 2, df) * se;
  return {
    ...base,
    ratio: Math.exp(estimate),
    ci95_low: Math.exp(estimate - halfwidth),
    ci95_high: Math.exp(estimate + halfwidth),
    log: { estimate, se, df, sd_a: Math.sqrt(sampleVariance(logA)), sd_b: Math.sqrt(sampleVariance(logB)) },
  };
}

/**
 * The smallest two-sided level α at which the (1 − α) interval of the log ratio lies wholly inside (lo, hi), both
 * on the log scale and possibly infinite: p < 0.05 exactly when the 95% interval is inside. 1 when the estimate
 * itself is outside. This is the p-value of the test "the true ratio is outside" (two one-sided tests for a
 * bounded region), which Holm's correction takes.
 */
export function pInside({ estimate, se, df }, lo, hi) {
  if (!(estimate > lo && estimate < hi)) return 1;
  if (se === 0) return 0;
  const distance = Math.min(estimate - lo, hi - estimate);
  return Math.min(1, 2 * (1 - jStat.studentt.cdf(distance / se, df)));
}

/** Holm's step-down adjustment: adjusted p-values in the given order; controls the family-wise error rate. */
export function adjustHolm(pValues) {
  const order = pValues.map((p, index) => ({ p, index })).sort((u, v) => u.p - v.p);
  const adjusted = new Array(pValues.length);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (pValues.length - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}

/** Past this many runs per cell the answer is "not by adding runs". */
export const MAX_RUNS_NEEDED = 1000;

/**
 * Runs per cell (the same on both sides) after which the 95% interval of the log ratio would probably be no wider
 * than ±halfwidth, taking the observed spreads of the logs as the truth; `alpha` lower than 0.05 for a family
 * corrected by Holm (α / k is Holm's strictest step). null when the spread is unknown or no count up to
 * MAX_RUNS_NEEDED would do.
 */
export function estimateRunsNeeded({ sd_a: sdA, sd_b: sdB }, halfwidth, { alpha = ALPHA, atLeast = 2 } = {}) {
  if (!(halfwidth > 0) || !Number.isFinite(sdA) || !Number.isFinite(sdB)) return null;
  const spread = sdA ** 2 + sdB ** 2;
  if (spread === 0) return Math.max(2, atLeast);
  for (let n = Math.max(2, atLeast); n <= MAX_RUNS_NEEDED; n++) {
    const df = (spread ** 2 * (n - 1)) / (sdA ** 4 + sdB ** 4);
    if (jStat.studentt.inv(1 - alpha / 2, df) * Math.sqrt(spread / n) <= halfwidth) return n;
  }
  return null;
}

/**
 * The 95% interval of a sample's centre on the same scale the ratios use: the geometric mean ± Student's t on the
 * logarithms. Never below 0 for a positive metric. null under 2 values or with a value ≤ 0.
 */
export function centreInterval(values) {
  const x = finite(values);
  if (x.length < 2 || x.some((value) => value <= 0)) return null;
  const logs = x.map(Math.log);
  const centre = mean(logs);
  const halfwidth = jStat.studentt.inv(1 - ALPHA / 2, x.length - 1) * Math.sqrt(sampleVariance(logs) / x.length);
  return { centre: Math.exp(centre), low: Math.exp(centre - halfwidth), high: Math.exp(centre + halfwidth) };
}

function finite(values) {
  return values.filter((value) => typeof value === 'number' && Number.isFinite(value));
}
