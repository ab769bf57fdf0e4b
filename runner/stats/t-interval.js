// What every interval of the form estimate ± t · se shares (Welch, paired t, Yuen): the interval at a level, the
// p of "the interval lies inside a region", and the runs after which it would probably be narrow enough.
import jstatModule from 'jstat';
import { findRunsNeeded } from './log-samples.js';

const { jStat } = jstatModule;

/**
 * @param {{ estimate: number, se: number, df: number|null }} t  df null when se is 0
 * @param {number} alpha  two-sided level of the interval
 * @param {(n: number, alpha: number) => number} predictHalfwidth  the (1 − alpha) half-width expected at n runs
 *   per cell, from the spreads seen so far
 */
export function buildTInterval({ estimate, se, df }, alpha, predictHalfwidth) {
  const halfwidth = se === 0 ? 0 : jStat.studentt.inv(1 - alpha / 2, df) * se;
  return {
    estimate,
    low: estimate - halfwidth,
    high: estimate + halfwidth,
    confidence: 1 - alpha,
    reason: null,
    /**
     * The smallest two-sided α at which the (1 − α) interval lies wholly inside (lo, hi) (log scale, possibly
     * infinite): the p of two one-sided t tests. 1 when the estimate itself is outside.
     */
    pInside(lo, hi) {
      if (!(estimate > lo && estimate < hi)) return 1;
      if (se === 0) return 0;
      return Math.min(1, 2 * (1 - jStat.studentt.cdf(Math.min(estimate - lo, hi - estimate) / se, df)));
    },
    runsNeeded(target, { alpha: level = alpha, atLeast = 2 } = {}) {
      if (!(target > 0)) return null;
      return findRunsNeeded((n) => predictHalfwidth(n, level) <= target, atLeast);
    },
  };
}

/** Student's t quantile with a guard for the df of a sample with no spread (any finite value does). */
export function quantileT(alpha, df) {
  return Number.isFinite(df) && df > 0 ? jStat.studentt.inv(1 - alpha / 2, df) : Infinity;
}
