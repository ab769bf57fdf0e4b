import { compareWithBest, quantileMcb } from '../../../runner/stats/mcb.js';

const series = (id, values, firstRound = 1) => ({
  id,
  values: values.map((value, r) => ({ round: firstRound + r, value })),
});

test('one setting alone is the best of those tried: U = 0', () => {
  const { settings, k } = compareWithBest([series('only', [100, 101, 99])]);
  expect(k).toBe(1);
  expect(settings[0]).toMatchObject({ U: 0, bound_pct: 0, binding: null, pairs: [] });
});

test('a setting without values is not compared and does not count in k', () => {
  const result = compareWithBest([
    series('a', [100, 102, 99, 101]),
    series('b', [110, 111, 108, 112]),
    series('c', []),
  ]);
  expect(result.k).toBe(2);
  expect(result.settings[2]).toMatchObject({ id: 'c', n: 0, U: Infinity, bound_pct: null, pairs: [] });
  expect(result.settings[0].pairs.map(({ id }) => id)).toEqual(['b']);
  expect(Number.isFinite(result.settings[0].U)).toBe(true);
});

test('settings never run in the same round cannot be compared: their bounds are infinite', () => {
  const result = compareWithBest([series('a', [100, 101, 99]), series('b', [100, 101, 99], 10)], { method: 'pooled' });
  expect(result.settings.map(({ U }) => U)).toEqual([Infinity, Infinity]);
  expect(result.settings[0].pairs[0].lower).toBe(-Infinity);
});

test('with two settings over the same rounds, pooled blocks and paired differences are one and the same', () => {
  const settings = [series('a', [100, 120, 95, 130, 101]), series('b', [103, 126, 97, 133, 103])];
  const pooled = compareWithBest(settings, { method: 'pooled' }).settings[0].pairs[0];
  const paired = compareWithBest(settings, { method: 'paired' }).settings[0].pairs[0];
  for (const key of ['D', 'SE', 'df', 'c', 'upper']) expect(pooled[key]).toBeCloseTo(paired[key], 12);
});

test('rounds as blocks: a shift common to a round cancels, unpaired Welch counts it as noise', () => {
  // b is 3% slower than a in every round; the rounds differ by up to 40%.
  const levels = [1000, 1400, 900, 1250, 1100];
  const settings = [
    series('a', levels),
    series(
      'b',
      levels.map((v, r) => v * 1.03 * (1 + 0.002 * (r - 2))),
    ),
  ];
  const blocked = compareWithBest(settings, { method: 'pooled' }).settings[1];
  const welch = compareWithBest(settings, { method: 'welch' }).settings[1];
  expect(blocked.pairs[0].SE).toBeLessThan(welch.pairs[0].SE / 20);
  expect(blocked.bound_pct).toBeGreaterThan(3);
  expect(blocked.bound_pct).toBeLessThan(4);
});

test('hybrid pools a pair whose residual spreads agree within 2×, and pairs one where they do not', () => {
  const settings = [
    series('noisy', [1000, 1150, 900, 1120, 880, 1090]),
    series('m2', [1000, 1010, 995, 1004, 998, 1003]),
    series('m4', [1002, 1006, 999, 1001, 1003, 997]),
    series('m8', [1005, 1001, 1004, 998, 1002, 1007]),
  ];
  const result = compareWithBest(settings, { method: 'hybrid' });
  const methods = Object.fromEntries(result.settings[1].pairs.map(({ id, method }) => [id, method]));
  expect(methods).toEqual({ noisy: 'paired', m4: 'pooled', m8: 'pooled' });
});

test('winsorising pulls a one-sided spike in, once, and leaves quiet runs alone', () => {
  const settings = [
    series('a', [1000, 1010, 995, 1004, 998, 1003]),
    series('b', [1001, 1012, 1590, 1003, 1000, 1006]),
    series('c', [1004, 1009, 999, 1008, 1001, 1002]),
  ];
  const plain = compareWithBest(settings, { method: 'pooled' });
  const pulled = compareWithBest(settings, { method: 'pooled', winsorize: true });
  expect(plain.winsorized).toBe(0);
  expect(pulled.winsorized).toBeGreaterThanOrEqual(1);
  expect(pulled.fit.sd).toBeLessThan(plain.fit.sd / 3);
  expect(pulled.settings[1].U).toBeLessThan(plain.settings[1].U);
});

test('quantileMcb: Bonferroni over the k − 1 comparisons with the best, infinite without df', () => {
  expect(quantileMcb(0.05, 2, 4)).toBeCloseTo(2.131846786, 8); // scipy.stats.t.ppf(0.95, 4)
  expect(quantileMcb(0.05, 5, 4)).toBeCloseTo(3.495405933, 7); // scipy.stats.t.ppf(1 - 0.05 / 4, 4)
  expect(quantileMcb(0.05, 4, 0)).toBe(Infinity);
});

test('bad input is refused with what to give instead', () => {
  expect(() => compareWithBest([series('a', [100, -1])])).toThrow(
    /setting a, round 2: a value must be a positive number/,
  );
  expect(() => compareWithBest([series('a', [1]), series('a', [2])])).toThrow(/setting "a" is given twice/);
  expect(() => compareWithBest([series('a', [1])], { method: 'anova' })).toThrow(
    /method must be one of pooled, paired/,
  );
});
