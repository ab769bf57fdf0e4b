import { readFileSync } from 'node:fs';
import { compareWithBest } from '../../../runner/stats/mcb.js';

// Expected figures from NumPy/SciPy, computed independently by scripts/mcb-scipy.py (full dummy design, lstsq,
// pinv, scipy.stats.t.ppf); the fixture is committed, the script regenerates it.
const FIXTURE = JSON.parse(readFileSync(new URL('../../fixtures/stats/mcb-scipy.json', import.meta.url), 'utf8'));

// D, SE and df are pinned to 1e-9 relative. The quantile c comes from jStat.studentt.inv, which is good to about
// 4e-8 relative against SciPy over df 1–400 (measured); c and what uses it (upper, lower, U) are pinned to 1e-7:
// a ten-thousandth of a per cent of a bound, far below anything printed.
const TIGHT = 1e-9;
const QUANTILE = 1e-7;

function expectClose(actual, expected, relative, label) {
  const tolerance = relative * Math.max(1, Math.abs(expected));
  if (!(Math.abs(actual - expected) <= tolerance)) {
    throw new Error(`${label}: ${actual} differs from SciPy's ${expected} by more than ${tolerance}`);
  }
}

const rows = FIXTURE.cases.flatMap((testCase) =>
  testCase.expected.map((expected) => [testCase.name, expected.method, expected.winsorize, testCase, expected]),
);

test('the fixture covers k = 2, 3, 4, 6, unbalanced rounds, a rate and every method with and without winsorising', () => {
  const sizes = new Set(FIXTURE.cases.map(({ settings }) => settings.length));
  expect([...sizes].sort()).toEqual([2, 3, 4, 6]);
  expect(FIXTURE.cases.some(({ lowerIsBetter }) => lowerIsBetter === false)).toBe(true);
  expect(new Set(rows.map(([, method, winsorize]) => `${method} ${winsorize}`)).size).toBe(10);
});

test.each(rows)(
  '%s · %s · winsorise %s: mcb.js gives SciPy’s figures',
  (name, method, winsorize, testCase, expected) => {
    const result = compareWithBest(testCase.settings, {
      method,
      winsorize,
      lowerIsBetter: testCase.lowerIsBetter,
      alpha: FIXTURE.alpha,
    });
    expect(result.winsorized).toBe(expected.winsorized);
    expect(result.fit.df).toBe(expected.fit.df);
    expectClose(result.fit.sd, expected.fit.sd, TIGHT, 'pooled sd');
    result.fit.sds.forEach((sd, s) => expectClose(sd, expected.fit.sds[s], TIGHT, `sd of ${testCase.settings[s].id}`));
    expected.settings.forEach((want, i) => {
      const got = result.settings[i];
      expect(got.id).toBe(want.id);
      expect(got.n).toBe(want.n);
      expect(got.binding).toBe(want.binding);
      expectClose(got.U, want.U, QUANTILE, `${want.id} U`);
      expectClose(got.bound_pct, want.bound_pct, QUANTILE, `${want.id} bound_pct`);
      expect(got.pairs.map(({ id }) => id)).toEqual(want.pairs.map(({ id }) => id));
      want.pairs.forEach((pair, p) => {
        const label = `${want.id} vs ${pair.id}`;
        expect(got.pairs[p].method).toBe(pair.method);
        expect(got.pairs[p].n).toBe(pair.n);
        for (const key of ['D', 'SE', 'df']) expectClose(got.pairs[p][key], pair[key], TIGHT, `${label} ${key}`);
        for (const key of ['c', 'upper', 'lower'])
          expectClose(got.pairs[p][key], pair[key], QUANTILE, `${label} ${key}`);
      });
    });
  },
);
