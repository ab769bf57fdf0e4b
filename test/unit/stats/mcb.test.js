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
  // A cheap setting about five times as noisy as three quiet ones (10 rounds).
  const settings = [
    series('noisy', [1013, 970, 979, 912, 1017, 994, 1092, 979, 970, 983]),
    series('m2', [1008, 1005, 1006, 1011, 1007, 992, 1010, 994, 1005, 1012]),
    series('m4', [1004, 1009, 988, 1002, 1014, 987, 1007, 1003, 997, 1036]),
    series('m8', [1000, 995, 1004, 984, 1007, 1000, 995, 1008, 983, 993]),
  ];
  const result = compareWithBest(settings, { method: 'hybrid' });
  const [noisy, ...quiet] = result.fit.sds;
  for (const sd of quiet) expect(noisy / sd).toBeGreaterThan(3);
  const methods = Object.fromEntries(result.settings[1].pairs.map(({ id, method }) => [id, method]));
  expect(methods).toEqual({ noisy: 'paired', m4: 'pooled', m8: 'pooled' });
});

test("each setting's own residual SD is not pulled towards the others (unlike S / ν)", () => {
  // Noise 6% against 1%: the residuals of the quiet settings carry part of the noisy one's (S / ν reads 2.3×).
  const settings = [
    series('noisy', [1088, 1076, 970, 985, 1065, 936, 973, 1026, 1065, 1006]),
    series('m2', [1003, 997, 1004, 1002, 986, 1006, 985, 1017, 1000, 997]),
    series('m4', [1000, 999, 1009, 1008, 1009, 1007, 987, 996, 1022, 1014]),
    series('m8', [1018, 1005, 994, 980, 993, 997, 1017, 1014, 1007, 995]),
  ];
  const { sds } = compareWithBest(settings).fit;
  expect(sds[0] / Math.max(...sds.slice(1))).toBeGreaterThan(3);
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

test('winsorising reads each setting on its own scale: a noisy setting beside quiet ones keeps its spread', () => {
  // Noise 6% against 1%: on one common scale (the quiet settings' MAD) half the noisy setting's runs would be pulled
  // in and its standard error shrunk; on its own scale none is.
  const settings = [
    series('noisy', [1088, 1076, 970, 985, 1065, 936, 973, 1026, 1065, 1006]),
    series('m2', [1003, 997, 1004, 1002, 986, 1006, 985, 1017, 1000, 997]),
    series('m4', [1000, 999, 1009, 1008, 1009, 1007, 987, 996, 1022, 1014]),
    series('m8', [1018, 1005, 994, 980, 993, 997, 1017, 1014, 1007, 995]),
  ];
  const plain = compareWithBest(settings, { method: 'paired' });
  const pulled = compareWithBest(settings, { method: 'paired', winsorize: true });
  expect(pulled.winsorized).toBeLessThanOrEqual(1);
  const se = (result) => result.settings[0].pairs.find(({ id }) => id === 'm2').SE;
  expect(se(pulled)).toBeGreaterThan(0.9 * se(plain));
});

test('alphaAt: a pair’s one-sided level from its common rounds, Infinity where a look may spend nothing', () => {
  const settings = [series('a', [1000, 1010, 995, 1004]), series('b', [1020, 1031, 1012, 1030])];
  const result = compareWithBest(settings, { method: 'paired', alphaAt: (n) => (n >= 4 ? 0.01 : 0) });
  expect(result.settings[0].pairs[0].c).toBeCloseTo(4.540702858, 7); // scipy.stats.t.ppf(0.99, 3)
  const none = compareWithBest(settings, { method: 'paired', alphaAt: () => 0 });
  expect(none.settings[0].U).toBe(Infinity);
  expect(none.settings[0].bound_pct).toBeNull();
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
