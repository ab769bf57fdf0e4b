import { readFileSync } from 'node:fs';
import { exactLevels, levelAtLook, spentBy, SPENDING_SHAPES } from '../../../runner/stats/alpha-spending.js';

// Expected levels from SciPy's joint normal CDF (scripts/mcb-scipy.py), independent of the grid this module carries.
const FIXTURE = JSON.parse(readFileSync(new URL('../../fixtures/stats/mcb-scipy.json', import.meta.url), 'utf8'));

const looks = (shape, kind) => ({ from: 3, cap: 8, shape, kind });
const sum = (values) => values.reduce((total, value) => total + value, 0);

test.each(SPENDING_SHAPES)(
  'union %s: the looks from `from` to the cap spend exactly α, nothing outside them',
  (shape) => {
    const levels = [3, 4, 5, 6, 7, 8].map((n) => levelAtLook(0.05, n, looks(shape, 'union')));
    expect(sum(levels)).toBeCloseTo(0.05, 12);
    for (const level of levels) expect(level).toBeGreaterThan(0);
    for (const n of [1, 2, 9, 3.5]) expect(levelAtLook(0.05, n, looks(shape, 'union'))).toBe(0);
  },
);

test('the spending functions: Pocock-like early, O’Brien–Fleming-like late, both all of α at the cap', () => {
  const bounds = { from: 3, cap: 8 };
  expect(spentBy('pocock', 0.05, 8, bounds)).toBe(0.05);
  expect(spentBy('obrien-fleming', 0.05, 8, bounds)).toBe(0.05);
  expect(spentBy('pocock', 0.05, 4, bounds)).toBeCloseTo(0.05 * Math.log(1 + (Math.E - 1) / 2), 12);
  expect(spentBy('obrien-fleming', 0.05, 4, bounds)).toBeLessThan(spentBy('pocock', 0.05, 4, bounds) / 3);
  expect(spentBy('bonferroni', 0.05, 5, bounds)).toBeCloseTo(0.025, 12);
  expect(() => spentBy('linear', 0.05, 5, bounds)).toThrow(/spending shape "linear"/);
});

test('exact levels: the first look as the union’s, every later one larger (the looks share their rounds)', () => {
  for (const shape of SPENDING_SHAPES) {
    const exact = exactLevels(0.05 / 3, 3, 8, shape);
    const union = [3, 4, 5, 6, 7, 8].map((n) => levelAtLook(0.05 / 3, n, looks(shape, 'union')));
    expect(exact[0]).toBeCloseTo(union[0], 10);
    exact.slice(1).forEach((level, i) => expect(level).toBeGreaterThan(union[i + 1]));
  }
});

test.each(FIXTURE.spending.map((c) => [c.shape, c.alpha, c.from, c.cap, c]))(
  'exact %s at α %f, looks %i…%i: the levels SciPy’s joint normal CDF gives',
  (shape, alpha, from, cap, { levels }) => {
    const ours = exactLevels(alpha, from, cap, shape);
    expect(ours).toHaveLength(levels.length);
    // SciPy's CDF is good to about 1e-6 absolute; the grid's step to about as much: 0.2% of a level is far below
    // anything a bound prints.
    ours.forEach((level, i) => expect(Math.abs(level - levels[i])).toBeLessThanOrEqual(2e-3 * levels[i] + 2e-6));
  },
);
