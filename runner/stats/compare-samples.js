// The one home of "how do two cells compare": the ratio B / A of a metric with an interval, by one of several
// methods, each unpaired or paired by round. Claims, steps, `compare` and adaptive stopping should all call this,
// so the method changes in one place. docs/statistics.md (npm run bench:stats) says which method decides most
// often at its nominal coverage on this machine's noise, and why.
import { estimateBootstrapMedian, estimatePairedBootstrapMedian } from './bootstrap-median.js';
import { estimateHodgesLehmann, estimatePairedHodgesLehmann } from './hodges-lehmann.js';
import { toLogSamples } from './log-samples.js';
import { ALPHA } from './ratio.js';
import { estimatePairedT, estimateWelch } from './welch-log.js';
import { estimatePairedYuen, estimateYuen } from './yuen.js';

/** Two-sided level of every interval and decision (ratio.js's): 95% intervals, decisions at 5%. */
export { ALPHA };

/**
 * The method the study of docs/statistics.md chose (npm run bench:stats: covers at 95% on every noise profile and
 * decides most often). When the chosen method is a paired one it pairs by round where the rounds are known (a
 * folder's cells); a comparison across folders has no common rounds and takes it unpaired. A unit test keeps this
 * equal to the page's winner.
 */
export const DEFAULT_COMPARISON = { method: 'yuen', paired: false };

/**
 * Two cells of one folder that ran in the same rounds may be compared on those rounds (rounds as blocks: a slow round
 * hits both sides, and the difference cancels it). docs/statistics.md ("Within a folder") chose the paired method
 * (the eligible one that decides most) and the fewest common rounds from which it decides as often as the unpaired
 * winner on every profile: on today's folders, never — on the findings-like noise (little shared in a round) the
 * unpaired winner decides more at every count, so claims and steps compare unpaired, and the advice's bounds, which
 * the bound study validated with blocks, keep theirs. A unit test keeps both equal to the page.
 */
export const BLOCKED_COMPARISON = { method: 'welch', paired: true };
export const BLOCKED_MIN_ROUNDS = Infinity;

/**
 * Each method: what it estimates, and the estimator unpaired (x = log a, y = log b) and paired (the logs of the
 * rounds both sides ran, in step, and their differences d).
 */
export const METHODS = {
  welch: {
    estimates: 'ratio of geometric means (Welch t on logs)',
    unpaired: (x, y, alpha) => estimateWelch(x, y, alpha),
    paired: ({ d }, alpha) => estimatePairedT(d, alpha),
  },
  'hodges-lehmann': {
    estimates: 'Hodges–Lehmann shift of logs (exact Mann–Whitney / signed-rank interval)',
    unpaired: (x, y, alpha) => estimateHodgesLehmann(x, y, alpha),
    paired: ({ d }, alpha) => estimatePairedHodgesLehmann(d, alpha),
  },
  'bootstrap-median': {
    estimates: 'ratio of medians (percentile bootstrap)',
    unpaired: (x, y, alpha, options) => estimateBootstrapMedian(x, y, alpha, options),
    paired: ({ x, y }, alpha, options) => estimatePairedBootstrapMedian(x, y, alpha, options),
  },
  yuen: {
    estimates: 'ratio of 20%-trimmed geometric means (Yuen t on logs)',
    unpaired: (x, y, alpha) => estimateYuen(x, y, alpha),
    paired: ({ d }, alpha) => estimatePairedYuen(d, alpha),
  },
};

/**
 * @param {Array<number|null|undefined>} a  the reference sample (non-finite values are left out)
 * @param {Array<number|null|undefined>} b  the sample judged against it
 * @param {{ method?: string, paired?: boolean, rounds?: { a: unknown[], b: unknown[] }, alpha?: number,
 *   resamples?: number, seed?: number }} [options]
 *   rounds: each value's round (runs.csv `repetition`), to pair by; without it the i-th runs pair.
 *   resamples, seed: the bootstrap's
 * @returns {{ method: string, paired: boolean, n_a: number, n_b: number, n_pairs: number|null,
 *   ratio: number|null, ci_low: number|null, ci_high: number|null, confidence: number|null,
 *   log: { estimate: number, low: number|null, high: number|null }|null, reason: string|null,
 *   pInside: (lo: number, hi: number) => number,
 *   runsNeeded: (halfwidth: number, options?: { alpha?: number, atLeast?: number }) => number|null }}
 *   confidence = the level actually achieved (a rank interval at 5 vs 5 runs: 96.8%); reason says why there is no
 *   interval (too few runs, a value ≤ 0, or a level these runs cannot reach). pInside(lo, hi): the smallest
 *   two-sided α at which the interval lies wholly inside (lo, hi) of the LOG ratio (1 when it cannot), the p that
 *   Holm's correction takes. runsNeeded(halfwidth): runs per cell after which the interval would probably be no
 *   wider than ±halfwidth on the log scale (at least the runs the level needs; null past MAX_RUNS_NEEDED).
 */
export function compareSamples(a, b, { method = 'welch', paired = false, rounds, alpha = ALPHA, ...options } = {}) {
  const chosen = METHODS[method];
  if (!chosen)
    throw new Error(`unknown comparison method ${JSON.stringify(method)}: one of ${Object.keys(METHODS).join(', ')}`);
  const { x, y, pairs, reason } = toLogSamples(a, b, { paired, rounds });
  const base = {
    method,
    paired,
    n_a: x.length,
    n_b: y.length,
    n_pairs: pairs ? pairs.d.length : null,
    ratio: null,
    ci_low: null,
    ci_high: null,
    confidence: null,
    log: null,
    reason,
    pInside: () => 1,
    runsNeeded: () => null,
  };
  if (reason) return base;
  const enough = paired ? pairs.d.length >= 2 : x.length >= 2 && y.length >= 2;
  if (!enough) {
    return {
      ...base,
      reason: paired
        ? 'fewer than 2 rounds with a run on both sides: no spread to judge by'
        : 'fewer than 2 runs on a side: no spread to judge by',
    };
  }
  const result = paired ? chosen.paired(pairs, alpha, options) : chosen.unpaired(x, y, alpha, options);
  const reached = result.low !== null;
  return {
    ...base,
    ratio: Math.exp(result.estimate),
    ci_low: reached ? Math.exp(result.low) : null,
    ci_high: reached ? Math.exp(result.high) : null,
    confidence: result.confidence,
    log: { estimate: result.estimate, low: result.low, high: result.high },
    reason: reached ? null : explainUnreached(result, alpha, paired),
    pInside: result.pInside,
    runsNeeded: result.runsNeeded,
  };
}

/** The names compareSamples takes, `welch` first (today's). */
export const METHOD_NAMES = Object.keys(METHODS);

function explainUnreached(result, alpha, paired) {
  const runs = result.minRuns(alpha);
  return `${result.reason}: ${runs} ${paired ? 'rounds with a run on both sides' : 'runs a side'} reach it`;
}
