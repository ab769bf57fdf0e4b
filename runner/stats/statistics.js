// Statistics of repeated runs: describe one sample, flag its outliers, mark a p-value. Comparing two samples
// is runner/stats/ratio.js.
// Pure functions of arrays of numbers; the math comes from simple-statistics and jstat.
import jstatModule from 'jstat';
import {
  mean,
  median as medianOfSample,
  medianAbsoluteDeviation,
  min,
  max,
  sampleStandardDeviation,
} from 'simple-statistics';

const { jStat } = jstatModule;

/** |modified Z-score| above which a value is an outlier (Iglewicz & Hoaglin 1993; hyperfine uses it too). */
/**
 * The statistics summary.csv gives each primary metric (`<metric>_<stat>` columns, in this order; `gmean` and the
 * interval are the cell's one centre and interval, `outliers` a count); a pivot table may show any of them but
 * `outliers`. The one list: the schema's `pivot.stat` and summary.csv read it.
 */
export const SUMMARY_STATS = [
  'median',
  'gmean',
  'mean',
  'stdev',
  'min',
  'max',
  'cv',
  'ci95_low',
  'ci95_high',
  'outliers',
];
export const PIVOT_STATS = SUMMARY_STATS.filter((stat) => stat !== 'outliers');

export const OUTLIER_THRESHOLD = 3.5;

/**
 * Fewer values flag nothing: with 3 the MAD is the smaller of two deviations, so the larger one is
 * "an outlier" whenever it is 5.2 times the smaller, which chance alone does often.
 */
export const OUTLIER_MIN_N = 5;

/**
 * Everything a summary row says about one cell's metric. Non-finite values (a metric a run did not
 * report) are left out, so `n` counts the values used. Statistics that need more values than there
 * are come back null: stdev, cv and the interval need n ≥ 2.
 * @param {Array<number|null|undefined>} values
 * @returns {{ n: number, median: number|null, mean: number|null, stdev: number|null, min: number|null,
 *   max: number|null, cv: number|null, ci95_low: number|null, ci95_high: number|null,
 *   ci95_halfwidth: number|null, ci95_relative: number|null, outliers: number[] }}
 *   cv = stdev / mean; ci95_* = the 95% confidence interval of the mean (Student's t, n − 1 degrees of
 *   freedom); ci95_relative = halfwidth / |mean| (what an adaptive stop rule compares with a target);
 *   outliers = indices (into the finite values, in the given order) whose |modified Z-score| > 3.5,
 *   looked for from n = 5 on.
 */
export function summarizeSample(values) {
  const sample = finiteValues(values);
  const n = sample.length;
  if (n === 0) {
    return {
      n,
      median: null,
      mean: null,
      stdev: null,
      min: null,
      max: null,
      cv: null,
      ci95_low: null,
      ci95_high: null,
      ci95_halfwidth: null,
      ci95_relative: null,
      outliers: [],
    };
  }
  const average = mean(sample);
  const stdev = n >= 2 ? sampleStandardDeviation(sample) : null;
  const halfwidth = n >= 2 ? tQuantile(0.975, n - 1) * (stdev / Math.sqrt(n)) : null;
  return {
    n,
    median: medianOfSample(sample),
    mean: average,
    stdev,
    min: min(sample),
    max: max(sample),
    cv: stdev === null || average === 0 ? null : stdev / average,
    ci95_low: halfwidth === null ? null : average - halfwidth,
    ci95_high: halfwidth === null ? null : average + halfwidth,
    ci95_halfwidth: halfwidth,
    ci95_relative: halfwidth === null || average === 0 ? null : halfwidth / Math.abs(average),
    outliers: findOutliers(sample),
  };
}

/**
 * Modified Z-scores, 0.6745 · (x − median) / MAD. When more than half the values are equal the MAD is 0;
 * then the mean absolute deviation stands in (× 1.253314, its ratio to σ for normal data), and when that
 * is 0 too every value equals the median and every score is 0.
 */
export function modifiedZScores(values) {
  const sample = finiteValues(values);
  if (sample.length === 0) return [];
  const center = medianOfSample(sample);
  const mad = medianAbsoluteDeviation(sample);
  if (mad > 0) return sample.map((value) => (0.6745 * (value - center)) / mad);
  const meanAbsoluteDeviation = mean(sample.map((value) => Math.abs(value - center)));
  if (meanAbsoluteDeviation === 0) return sample.map(() => 0);
  return sample.map((value) => (value - center) / (1.253314 * meanAbsoluteDeviation));
}

export function findOutliers(values) {
  if (finiteValues(values).length < OUTLIER_MIN_N) return [];
  return modifiedZScores(values).flatMap((score, index) => (Math.abs(score) > OUTLIER_THRESHOLD ? [index] : []));
}

/** The median of the finite values (the mean of the middle two for an even count); null when there are none. */
export function median(values) {
  const sample = finiteValues(values);
  return sample.length === 0 ? null : medianOfSample(sample);
}

/** Two-sided quantile of Student's t distribution, e.g. tQuantile(0.975, 1) = 12.706. */
export function tQuantile(probability, degreesOfFreedom) {
  return jStat.studentt.inv(probability, degreesOfFreedom);
}

/** Node's benchmark/compare.js marks: `***` p < 0.001, `**` p < 0.01, `*` p < 0.05, else ''. */
export function significanceMark(p) {
  if (p === null || p === undefined || Number.isNaN(p)) return '';
  if (p < 0.001) return '***';
  if (p < 0.01) return '**';
  if (p < 0.05) return '*';
  return '';
}

function finiteValues(values) {
  return values.filter((value) => typeof value === 'number' && Number.isFinite(value));
}
