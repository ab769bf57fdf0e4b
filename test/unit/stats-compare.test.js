import { compareSamples, significanceMark, welchTest } from '../../runner/stats/statistics.js';

// R's `sleep` data set; t.test(extra ~ group, data = sleep) prints
// t = -1.8608, df = 17.776, p-value = 0.07939, 95% CI of group1 − group2: -3.3654832 0.2054832.
const GROUP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
const GROUP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

describe("welchTest (Welch's unequal-variances t-test of mean(b) − mean(a))", () => {
  test("matches R's t.test on the sleep data", () => {
    const result = welchTest(GROUP_2, GROUP_1);
    expect(result.difference).toBeCloseTo(-1.58, 10);
    expect(result.t).toBeCloseTo(-1.8608, 4);
    expect(result.df).toBeCloseTo(17.776, 3);
    expect(result.p).toBeCloseTo(0.07939, 5);
    expect(result.ci95_low).toBeCloseTo(-3.3654832, 6);
    expect(result.ci95_high).toBeCloseTo(0.2054832, 6);
  });

  test('is symmetric: swapping the samples flips the sign, keeps p', () => {
    const there = welchTest(GROUP_1, GROUP_2);
    const back = welchTest(GROUP_2, GROUP_1);
    expect(there.t).toBeCloseTo(-back.t, 10);
    expect(there.p).toBeCloseTo(back.p, 10);
  });

  test('n < 2 on either side or two constant samples: no test, only the difference', () => {
    expect(welchTest([1], [2, 3])).toEqual({ difference: 1.5, t: null, df: null, p: null, ci95_low: null, ci95_high: null });
    expect(welchTest([1, 1], [2, 2])).toMatchObject({ difference: 1, p: null });
    expect(welchTest([], [])).toMatchObject({ difference: null, p: null });
  });

  test('equal samples give p = 1, never above', () => {
    expect(welchTest([1, 2, 3], [1, 2, 3]).p).toBe(1);
  });
});

describe('compareSamples (ratio of means B / A with its 95% interval)', () => {
  test('ratio = mean B / mean A; interval = 1 + Welch interval of the difference / mean A', () => {
    // A: mean 100, variance 4; B: mean 80, variance 4. se = √(4/3 + 4/3) = 1.632993, df = 4, t(0.975, 4) = 2.776445
    const result = compareSamples([98, 100, 102], [78, 80, 82]);
    expect(result.ratio).toBeCloseTo(0.8, 12);
    expect(result.df).toBeCloseTo(4, 10);
    expect(result.ratio_ci95_low).toBeCloseTo(0.8 - (2.776445 * 1.632993) / 100, 5);
    expect(result.ratio_ci95_high).toBeCloseTo(0.8 + (2.776445 * 1.632993) / 100, 5);
    expect(result.p).toBeCloseTo(0.000255, 6); // t = 20 / 1.632993 = 12.247, df = 4
    expect(result.significance).toBe('***');
  });

  test('the interval excludes 1 exactly when p < 0.05', () => {
    for (const shift of [0, 1, 2, 3, 4, 6, 10]) {
      const result = compareSamples([97, 100, 103, 99], [97 + shift, 100 + shift, 103 + shift, 101 + shift]);
      expect(result.ratio_ci95_low > 1 || result.ratio_ci95_high < 1).toBe(result.p < 0.05);
    }
  });

  test('n = 1 still gives the ratio, with no interval or stars', () => {
    expect(compareSamples([100], [50])).toMatchObject({ ratio: 0.5, ratio_ci95_low: null, ratio_ci95_high: null, p: null, significance: '' });
  });
});

test("significance marks are Node's benchmark compare marks", () => {
  expect([0.2, 0.05, 0.049, 0.01, 0.0099, 0.001, 0.00099, null].map(significanceMark)).toEqual(['', '', '*', '*', '**', '**', '***', '']);
});
