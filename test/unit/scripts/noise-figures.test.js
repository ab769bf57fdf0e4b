// bench:noise's figures (scripts/lib/noise-figures.js) on tables worked out by hand, and the rounds to a 5% bound
// against SciPy's t quantiles.
import { compareWithBest } from '../../../runner/stats/mcb.js';
import { createRandom } from '../../../runner/stats/random.js';
import { DEFAULT_BOUND_RULE } from '../../../runner/verdicts/choose-setting.js';
import {
  bootstrapRounds,
  countRoundsToBound,
  findPercentileInterval,
  measureBounds,
  measurePairedSdOf,
  fitCellCovariate,
  measureBlockedResidualSd,
  measurePairedSd,
  pairSettings,
} from '../../../scripts/lib/noise-figures.js';

/** One budget, cells a and b, one observation per (cell, round); y given per round as [a, b]. */
const budgetOf = (rows, budget = 'x') =>
  rows.flatMap(([a, b], index) => [
    { budget, cell: 'a', round: String(index + 1), y: a },
    { budget, cell: 'b', round: String(index + 1), y: b },
  ]);

test('an additive table (cell + round, nothing else) leaves no residual and a round SD of its round effects', () => {
  const fit = measureBlockedResidualSd(
    budgetOf([
      [1, 2],
      [1.5, 2.5],
      [0.5, 1.5],
    ]),
  );
  expect(fit.sd).toBeCloseTo(0, 12);
  expect(fit.df).toBe(2);
  // Round means 1.5, 2, 1 about 1.5: variance (0 + 0.25 + 0.25) / 2 = 0.25.
  expect(fit.roundSd).toBeCloseTo(0.5, 12);
});

test('by hand: a 2 × 2 table with an interaction of ±e leaves residuals ±e/2 on 1 degree of freedom', () => {
  // y = [[0, 1], [0, 1 + e]]: the residuals are ±e/4 in each cell, SS = 4 (e/4)² = e²/4, df 1.
  const e = 0.2;
  const fit = measureBlockedResidualSd(
    budgetOf([
      [0, 1],
      [0, 1 + e],
    ]),
  );
  expect(fit.sd).toBeCloseTo(e / 2, 12);
  expect(fit.df).toBe(1);
  // A round missing a cell is left out of the fit.
  const gap = [
    ...budgetOf([
      [0, 1],
      [0, 1 + e],
    ]),
    { budget: 'x', cell: 'a', round: '3', y: 9 },
  ];
  expect(measureBlockedResidualSd(gap).sd).toBeCloseTo(e / 2, 12);
});

test('paired differences: each pair about its own mean, pooled; a covariate that explains them takes them out', () => {
  const observations = budgetOf([
    [0, 0.1],
    [0, 0.3],
    [0, 0.2],
  ]).map((o, index) => ({ ...o, probe: o.cell === 'b' ? [0, 0, 0.1, 0.1, 0.05, 0.05][index] * 2 : 0, probeCpu: 0 }));
  const pairs = pairSettings(observations);
  expect(pairs).toHaveLength(1);
  expect(pairs[0].d.map((d) => Number(d.toFixed(12)))).toEqual([0.1, 0.3, 0.2]);
  // d = 0.1, 0.3, 0.2: mean 0.2, SS 0.02 on 2 df.
  expect(measurePairedSd(pairs).sd).toBeCloseTo(0.1, 12);
  // The probe's differences 0, 0.2, 0.1 line up with d exactly: nothing is left.
  const adjusted = measurePairedSd(pairs, 'probe');
  expect(adjusted.correlation).toBeCloseTo(1, 12);
  expect(adjusted.sd).toBeCloseTo(0, 12);
  expect(fitCellCovariate(observations, 'probe').correlation).toBeCloseTo(1, 12);
});

test.each([
  [0.03, 0, 5],
  [0.03, 0.02, 8],
  [0.05, 0, 8],
  [0.05, 0.02, 17],
  [0.1, 0, 22],
  [0.1, 0.02, 57],
])(
  'paired SD %p, gap %p: %p rounds (SciPy: smallest n with t(1 − 0.05/3, n − 1) · sd / √n ≤ ln 1.05 − ln(1 + gap))',
  (sd, gap, rounds) => {
    expect(countRoundsToBound(sd, { gap })).toBe(rounds);
  },
);

test('no bound reachable: a gap at the margin, or more rounds than allowed', () => {
  expect(countRoundsToBound(0.05, { gap: 0.05 })).toBeNull();
  expect(countRoundsToBound(1, { most: 50 })).toBeNull();
});

test('bootstrap over rounds: seeded, every replicate a resample of whole rounds, the interval holds the estimate', () => {
  const observations = budgetOf([
    [0, 0.1],
    [0, 0.3],
    [0, 0.2],
    [0.1, 0.1],
    [0, 0.25],
  ]);
  const draw = () => bootstrapRounds(observations, measurePairedSdOf, { resamples: 200, random: createRandom(9) });
  const replicates = draw();
  expect(replicates).toEqual(draw());
  // A resample that drew one round five times has no spread; every other one some: never more than the widest pair.
  expect(replicates.length).toBeGreaterThan(190);
  expect(Math.max(...replicates)).toBeLessThanOrEqual(0.25);
  const [low, high] = findPercentileInterval(replicates);
  expect(low).toBeLessThan(measurePairedSdOf(observations));
  expect(high).toBeGreaterThan(measurePairedSdOf(observations));
  expect(findPercentileInterval([1, 2, 3, 4, 5])).toEqual([1.1, 4.9]);
});

test("the bound a budget reached is advice's MCB bound of its best-bounded setting; a probe that explains the noise tightens it", () => {
  // Setting b is 2% slower than a; each round shares a shift the probe sees exactly, plus a little noise of its own.
  const shifts = [0.1, -0.05, 0.2, 0, -0.1, 0.15];
  const own = [0.01, -0.01, 0.005, -0.005, 0.0, 0.01];
  const observations = shifts.flatMap((shift, index) => [
    { budget: 'x', cell: 'a', round: String(index), y: Math.log(100) + shift + own[index], probe: shift },
    { budget: 'x', cell: 'b', round: String(index), y: Math.log(102) + shift - own[index], probe: shift * 1.01 },
  ]);
  const [{ budget, bound_pct: bound }] = measureBounds(observations);
  const direct = compareWithBest(
    ['a', 'b'].map((cell) => ({
      id: cell,
      values: observations.filter((o) => o.cell === cell).map((o) => ({ round: o.round, value: Math.exp(o.y) })),
    })),
    { method: DEFAULT_BOUND_RULE.method, winsorize: DEFAULT_BOUND_RULE.winsorize },
  );
  expect(budget).toBe('x');
  expect(bound).toBeCloseTo(Math.min(...direct.settings.map((setting) => setting.bound_pct)), 10);
  const [{ bound_pct: withProbe }] = measureBounds(observations, { covariate: 'probe' });
  expect(withProbe).toBeLessThanOrEqual(bound);
});
