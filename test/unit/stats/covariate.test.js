// The covariate adjustment (runner/stats/covariate.js) against a hand computation and against NumPy's least squares
// of y on group indicators plus x (scripts/covariate-numpy.py wrote the fixture).
import { readFileSync } from 'node:fs';
import { adjustByCovariate, fitWithinSlope } from '../../../runner/stats/covariate.js';

const reference = JSON.parse(
  readFileSync(new URL('../../fixtures/stats/covariate-numpy.json', import.meta.url), 'utf8'),
);

test('by hand: two groups, the slope pools the within-group sums and ignores the gap between the groups', () => {
  // Group 1: x 1, 2, 3 (mean 2), y 2, 4, 5 (mean 11/3); group 2: x 10, 12 (mean 11), y 0, 3 (mean 1.5).
  // Sxx = (1 + 0 + 1) + (1 + 1) = 4; Sxy = (−1)(−5/3) + 0 + (1)(4/3) + (−1)(−1.5) + (1)(1.5) = 3 + 3 = 6; slope 1.5.
  // Syy = 25/9 + 1/9 + 16/9 + 2.25 + 2.25 = 42/9 + 4.5; residual SS = Syy − 1.5 · 6.
  const fit = fitWithinSlope([
    { x: [1, 2, 3], y: [2, 4, 5] },
    { x: [10, 12], y: [0, 3] },
  ]);
  const syy = 42 / 9 + 4.5;
  expect(fit.slope).toBeCloseTo(1.5, 12);
  expect(fit.sdBefore).toBeCloseTo(Math.sqrt(syy / 3), 12);
  expect(fit.sdAfter).toBeCloseTo(Math.sqrt((syy - 9) / 2), 12);
  expect(fit.correlation).toBeCloseTo(6 / Math.sqrt(4 * syy), 12);
  expect(fit).toMatchObject({ n: 5, groups: 2 });
  expect(adjustByCovariate([2, 4, 5], [1, 2, 3], 1.5, 2)).toEqual([3.5, 4, 3.5]);
});

test('agrees with NumPy on fixed samples', () => {
  const { samples, expected } = reference;
  const fit = fitWithinSlope(samples);
  for (const key of ['slope', 'correlation', 'sdBefore', 'sdAfter', 'varianceReduction'])
    expect(fit[key]).toBeCloseTo(expected[key], 10);
  const adjusted = adjustByCovariate(samples[0].y, samples[0].x, fit.slope, expected.centre);
  adjusted.forEach((value, index) => expect(value).toBeCloseTo(expected.adjustedFirstGroup[index], 10));
});

test('no fit when x never varies within a group, or too few pairs; values that are not finite are left out', () => {
  expect(fitWithinSlope([{ x: [1, 1, 1], y: [1, 2, 3] }])).toBeNull();
  expect(fitWithinSlope([{ x: [1, 2], y: [1, 2] }])).toBeNull();
  const fit = fitWithinSlope([{ x: [1, 2, 3, NaN], y: [1, 2, 3, 9] }]);
  expect(fit).toMatchObject({ slope: 1, n: 3, sdAfter: 0, varianceReduction: 1 });
});
