// Hodges–Lehmann shifts on the logarithms, with the exact rank intervals R's wilcox.test(conf.int = TRUE) gives.
// Two samples: the median of the m·n differences log b_j − log a_i, and Moses' interval between two of those
// differences, chosen by the Mann–Whitney distribution. Paired by round: the median of the Walsh averages of the
// per-round differences, and the interval between two of them chosen by the signed-rank distribution.
// The interval is exact for any continuous distribution of the noise (a slow run counts as one rank, however
// slow), but its levels are discrete: 3 vs 3 runs reach 90% at most, 5 paired rounds 93.75%; the confidence
// actually achieved is returned, and no interval where 1 − α cannot be reached.
import jstatModule from 'jstat';
import { cdfMannWhitney, cdfSignedRank } from './exact-ranks.js';
import { countAtMost, countBelow, estimateRobustSd, findRunsNeeded } from './log-samples.js';
import { medianSorted } from 'simple-statistics';

const { jStat } = jstatModule;

/** Asymptotic variance of a Hodges–Lehmann shift relative to a difference of means, for normal data: π / 3. */
const VARIANCE_VS_MEAN = Math.PI / 3;

/** Moses' interval for the shift of y = log b against x = log a. */
export function estimateHodgesLehmann(x, y, alpha) {
  const differences = new Float64Array(x.length * y.length);
  let k = 0;
  for (const yj of y) for (const xi of x) differences[k++] = yj - xi;
  differences.sort();
  const [m, n] = [x.length, y.length];
  const [sdA, sdB] = [estimateRobustSd(x), estimateRobustSd(y)];
  return {
    ...buildRankInterval(differences, (u) => cdfMannWhitney(u, m, n), alpha),
    runsNeeded(target, { alpha: level = alpha, atLeast = 2 } = {}) {
      if (!(target > 0)) return null;
      const spread = sdA ** 2 + sdB ** 2;
      return findRunsNeeded(
        (runs) =>
          reachesLevel((u) => cdfMannWhitney(u, runs, runs), level) &&
          predictHalfwidth(spread, runs, 2 * runs - 2, level) <= target,
        atLeast,
      );
    },
    minRuns: (level) => findRunsNeeded((runs) => reachesLevel((u) => cdfMannWhitney(u, runs, runs), level)),
  };
}

/** The interval of the centre of the per-round differences d from their Walsh averages (d_i + d_j) / 2, i ≤ j. */
export function estimatePairedHodgesLehmann(d, alpha) {
  const n = d.length;
  const averages = new Float64Array((n * (n + 1)) / 2);
  let k = 0;
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) averages[k++] = (d[i] + d[j]) / 2;
  averages.sort();
  const sd = estimateRobustSd(d);
  return {
    ...buildRankInterval(averages, (t) => cdfSignedRank(t, n), alpha),
    runsNeeded(target, { alpha: level = alpha, atLeast = 2 } = {}) {
      if (!(target > 0)) return null;
      return findRunsNeeded(
        (runs) =>
          reachesLevel((t) => cdfSignedRank(t, runs), level) &&
          predictHalfwidth(sd ** 2, runs, runs - 1, level) <= target,
        atLeast,
      );
    },
    minRuns: (level) => findRunsNeeded((runs) => reachesLevel((t) => cdfSignedRank(t, runs), level)),
  };
}

/**
 * The nested intervals [S(k), S(N + 1 − k)] of N sorted values S cover the true shift with probability
 * 1 − 2 · F(k − 1), F the null distribution of the rank statistic: the largest k with 1 − 2 F(k − 1) ≥ 1 − α is
 * the interval. (R takes k from qwilcox(α / 2), which differs only where F(k − 1) equals α / 2 exactly: R
 * then takes the wider interval.)
 */
export function buildRankInterval(sorted, cdf, alpha) {
  const total = sorted.length;
  const estimate = medianSorted(sorted);
  let k = 0;
  while (k + 1 <= (total + 1) / 2 && 2 * cdf(k) <= alpha) k += 1;
  const reached = k >= 1;
  return {
    estimate,
    low: reached ? sorted[k - 1] : null,
    high: reached ? sorted[total - k] : null,
    confidence: reached ? 1 - 2 * cdf(k - 1) : null,
    // The most these runs can reach, [min, max] of S: what an impossible level is reported against.
    best: 1 - 2 * cdf(0),
    reason: reached
      ? null
      : `the widest rank interval of these runs covers ${formatPct(1 - 2 * cdf(0))}, short of ${formatPct(1 - alpha)}`,
    /**
     * The smallest two-sided α at which one of the nested intervals lies wholly inside (lo, hi): that of the
     * widest one inside, 2 · F(k − 1). It takes only these discrete values (the exact rank test's p).
     */
    pInside(lo, hi) {
      if (!(estimate > lo && estimate < hi)) return 1;
      const k = Math.max(countAtMost(sorted, lo), total - countBelow(sorted, hi)) + 1;
      return 2 * k > total + 1 ? 1 : Math.min(1, 2 * cdf(k - 1));
    },
  };
}

function reachesLevel(cdf, alpha) {
  return 2 * cdf(0) <= alpha;
}

// Half-width of a t interval with the spread of a Hodges–Lehmann shift (normal data): conservative at small n.
function predictHalfwidth(variancePerRun, runs, df, alpha) {
  if (variancePerRun === 0) return 0;
  if (!Number.isFinite(variancePerRun)) return Infinity;
  return jStat.studentt.inv(1 - alpha / 2, Math.max(1, df)) * Math.sqrt((VARIANCE_VS_MEAN * variancePerRun) / runs);
}

function formatPct(share) {
  return `${Number((100 * share).toFixed(1))}%`;
}
