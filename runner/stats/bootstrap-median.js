// The percentile bootstrap of the ratio of medians: resample each side's runs with replacement (paired: resample
// whole rounds), take median(b*) / median(a*) each time, and read the interval off the replicates. Its level is
// approximate: with 3 runs a side the medians of resamples take only the 3 values seen. Seeded, so the same
// runs always give the same interval.
import jstatModule from 'jstat';
import { createRandom } from './random.js';
import { countAtMost, countBelow, estimateRobustSd, findRunsNeeded } from './log-samples.js';
import { medianSorted } from 'simple-statistics';

const { jStat } = jstatModule;

/** 1999 replicates: (B + 1) · 0.025 is a whole number, so the 95% interval is two replicates, not a blend. */
export const RESAMPLES = 1999;

/** Asymptotic variance of a sample median relative to a mean, for normal data: π / 2. */
const VARIANCE_VS_MEAN = Math.PI / 2;

export function estimateBootstrapMedian(x, y, alpha, { resamples = RESAMPLES, seed = 1 } = {}) {
  const random = createRandom(seed);
  const [sa, sb] = [new Float64Array(x.length), new Float64Array(y.length)];
  const replicates = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < x.length; i++) sa[i] = x[Math.floor(random() * x.length)];
    for (let j = 0; j < y.length; j++) sb[j] = y[Math.floor(random() * y.length)];
    replicates[r] = medianSorted(sortSmall(sb)) - medianSorted(sortSmall(sa));
  }
  const estimate = medianSorted(Float64Array.from(y).sort()) - medianSorted(Float64Array.from(x).sort());
  const spread = estimateRobustSd(x) ** 2 + estimateRobustSd(y) ** 2;
  return buildPercentileInterval(estimate, replicates.sort(), alpha, (n, level) => predictHalfwidth(spread, n, level));
}

/** Paired by round: resample rounds, each keeping its run of A and its run of B. */
export function estimatePairedBootstrapMedian(x, y, alpha, { resamples = RESAMPLES, seed = 1 } = {}) {
  const random = createRandom(seed);
  const n = x.length;
  const [sa, sb] = [new Float64Array(n), new Float64Array(n)];
  const replicates = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) {
      const round = Math.floor(random() * n);
      sa[i] = x[round];
      sb[i] = y[round];
    }
    replicates[r] = medianSorted(sortSmall(sb)) - medianSorted(sortSmall(sa));
  }
  const estimate = medianSorted(Float64Array.from(y).sort()) - medianSorted(Float64Array.from(x).sort());
  const sd = estimateRobustSd(y.map((value, i) => value - x[i]));
  return buildPercentileInterval(estimate, replicates.sort(), alpha, (runs, level) =>
    predictHalfwidth(sd ** 2, runs, level),
  );
}

/**
 * The interval runs from the j-th smallest to the j-th largest replicate, j = (B + 1) · α / 2. It lies inside
 * (lo, hi) while fewer than j replicates fall at or beyond either bound, so pInside = (2c + 1) / (B + 1), c the
 * larger of those two counts: below α exactly when the interval at α is inside.
 */
function buildPercentileInterval(estimate, sorted, alpha, predict) {
  const total = sorted.length;
  const j = Math.max(1, Math.floor(((total + 1) * alpha) / 2));
  return {
    estimate,
    low: sorted[j - 1],
    high: sorted[total - j],
    confidence: 1 - alpha,
    reason: null,
    pInside(lo, hi) {
      if (!(estimate > lo && estimate < hi)) return 1;
      const below = countAtMost(sorted, lo);
      const above = total - countBelow(sorted, hi);
      return Math.min(1, (2 * Math.max(below, above) + 1) / (total + 1));
    },
    runsNeeded(target, { alpha: level = alpha, atLeast = 2 } = {}) {
      if (!(target > 0)) return null;
      return findRunsNeeded((n) => predict(n, level) <= target, atLeast);
    },
  };
}

// Insertion sort: a resample holds a cell's few runs, where it beats TypedArray#sort's call overhead several times
// over (the bootstrap sorts two resamples per replicate).
function sortSmall(values) {
  for (let i = 1; i < values.length; i++) {
    const value = values[i];
    let j = i - 1;
    while (j >= 0 && values[j] > value) {
      values[j + 1] = values[j];
      j--;
    }
    values[j + 1] = value;
  }
  return values;
}

function predictHalfwidth(variancePerRun, runs, alpha) {
  if (variancePerRun === 0) return 0;
  if (!Number.isFinite(variancePerRun)) return Infinity;
  return jStat.normal.inv(1 - alpha / 2, 0, 1) * Math.sqrt((VARIANCE_VS_MEAN * variancePerRun) / runs);
}
