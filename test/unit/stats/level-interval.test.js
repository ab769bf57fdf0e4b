// A cell's level on its own and the difference of two cells' means, each with its 95% interval (runner/stats/
// level-interval.js), pinned against SciPy 1.17: stats.ttest_1samp(log(x), 0).confidence_interval(0.95) and
// stats.ttest_ind(b, a, equal_var=False).confidence_interval(0.95), values printed to 10 digits.
import { intervalOfDifference, intervalOfLevel } from '../../../runner/stats/level-interval.js';

test("a cell's level: the geometric mean with a t interval on the logs, as SciPy's one-sample t gives it", () => {
  const found = intervalOfLevel([412.0, 398.5, 405.2]);
  expect(found.estimate).toBeCloseTo(405.1958538569, 8);
  expect(found.low).toBeCloseTo(388.7707946202, 8);
  expect(found.high).toBeCloseTo(422.3148504331, 8);
  expect(found.n).toBe(3);
  // One run has a level and no interval; none has neither.
  expect(intervalOfLevel([7])).toMatchObject({ estimate: 7, n: 1 });
  expect(Number.isNaN(intervalOfLevel([7]).low)).toBe(true);
  expect(intervalOfLevel([])).toBeNull();
});

test("the difference of two cells' means with Welch's interval, as SciPy's ttest_ind(equal_var=False) gives it", () => {
  const found = intervalOfDifference([31.2, 31.5, 30.9, 31.1, 31.4], [120.1, 121.0, 119.5, 120.7, 120.2]);
  expect(found.estimate).toBeCloseTo(89.08, 10);
  expect(found.low).toBeCloseTo(88.3731734399, 8);
  expect(found.high).toBeCloseTo(89.7868265601, 8);
  expect(intervalOfDifference([1, 1], [3, 3])).toMatchObject({ estimate: 2, low: 2, high: 2 });
  expect(intervalOfDifference([], [1])).toBeNull();
});
