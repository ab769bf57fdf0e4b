import {
  summarizeSample,
  findOutliers,
  modifiedZScores,
  tQuantile,
  OUTLIER_MIN_N,
} from '../../../runner/stats/statistics.js';

describe('summarizeSample', () => {
  test('matches hand-computed values for [2, 4, 4, 4, 5, 5, 7, 9]', () => {
    // mean 5; Σ(x − 5)² = 32, so stdev = √(32/7) = 2.13809; t(0.975, 7) = 2.364624;
    // halfwidth = 2.364624 · 2.13809 / √8 = 2.364624 · 0.755929 = 1.787488
    const stats = summarizeSample([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(stats).toMatchObject({ n: 8, median: 4.5, mean: 5, min: 2, max: 9 });
    expect(stats.stdev).toBeCloseTo(2.13809, 5);
    expect(stats.cv).toBeCloseTo(0.427618, 5);
    expect(stats.ci95_low).toBeCloseTo(3.212512, 5);
    expect(stats.ci95_high).toBeCloseTo(6.787488, 5);
    expect(stats.ci95_relative).toBeCloseTo(0.357498, 5);
    // median 4.5, MAD 0.5: 9 scores 0.6745 · 4.5 / 0.5 = 6.07 (an outlier), 2 scores −3.37 (not)
    expect(stats.outliers).toEqual([7]);
  });

  test('n = 2 uses t(0.975, 1) = 12.706: a very wide interval, as it should be', () => {
    const stats = summarizeSample([1, 3]);
    expect(stats).toMatchObject({ n: 2, median: 2, mean: 2, min: 1, max: 3 });
    expect(stats.stdev).toBeCloseTo(Math.SQRT2, 10);
    expect(stats.ci95_low).toBeCloseTo(2 - 12.7062047, 6);
    expect(stats.ci95_high).toBeCloseTo(2 + 12.7062047, 6);
  });

  test('n = 1 has a median, mean, min and max but no spread or interval', () => {
    expect(summarizeSample([5724.3])).toEqual({
      n: 1,
      median: 5724.3,
      mean: 5724.3,
      stdev: null,
      min: 5724.3,
      max: 5724.3,
      cv: null,
      ci95_low: null,
      ci95_high: null,
      ci95_halfwidth: null,
      ci95_relative: null,
      outliers: [],
    });
  });

  test('n = 0 and values a run did not report (undefined, NaN) are left out', () => {
    expect(summarizeSample([])).toMatchObject({ n: 0, median: null, mean: null, ci95_low: null, outliers: [] });
    expect(summarizeSample([undefined, 10, Number.NaN, null, 20])).toMatchObject({ n: 2, mean: 15 });
  });

  test('identical values: zero spread, a zero-width interval', () => {
    expect(summarizeSample([7, 7, 7])).toMatchObject({ stdev: 0, cv: 0, ci95_low: 7, ci95_high: 7 });
  });
});

describe('Student t quantiles against a printed table (two-sided 95%)', () => {
  test.each([
    [1, 12.706],
    [2, 4.303],
    [4, 2.776],
    [9, 2.262],
    [29, 2.045],
    [120, 1.98],
  ])('df = %i → %f', (df, expected) => {
    expect(tQuantile(0.975, df)).toBeCloseTo(expected, 3);
  });
});

describe('outliers by modified Z-score', () => {
  test('scores are 0.6745 · (x − median) / MAD', () => {
    // median 10.1; |deviations| 0.1, 0.1, 0.2, 0, 19.9 → MAD 0.1
    const scores = modifiedZScores([10, 10.2, 9.9, 10.1, 30]);
    expect(scores.map((score) => Number(score.toFixed(4)))).toEqual([-0.6745, 0.6745, -1.349, 0, 134.2255]);
    expect(findOutliers([10, 10.2, 9.9, 10.1, 30])).toEqual([4]);
  });

  test('MAD = 0 falls back to the mean absolute deviation instead of dividing by zero', () => {
    // median 5, MAD 0; mean |deviation| = 45/6 = 7.5 → score of 50 = 45 / (1.253314 · 7.5) = 4.787
    const scores = modifiedZScores([5, 5, 5, 5, 5, 50]);
    expect(scores[5]).toBeCloseTo(4.7873, 3);
    expect(findOutliers([5, 5, 5, 5, 5, 50])).toEqual([5]);
    expect(modifiedZScores([3, 3, 3])).toEqual([0, 0, 0]);
  });

  test(`fewer than ${OUTLIER_MIN_N} values flag nothing (with 3 the MAD is one deviation)`, () => {
    expect(findOutliers([5858, 5849, 8076])).toEqual([]);
    expect(summarizeSample([5858, 5849, 8076]).outliers).toEqual([]);
  });
});
