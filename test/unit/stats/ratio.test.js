import { readFileSync } from 'node:fs';
import { adjustHolm, compareRatio, estimateRunsNeeded, pInside } from '../../../runner/stats/ratio.js';
import { judgeFamily } from '../../../runner/verdicts/judge.js';
import { expectRegions, stepRegions } from '../../../runner/verdicts/regions.js';

// Computed with SciPy by test/fixtures/stats/reference.py (its output is reference.json).
const REFERENCE = JSON.parse(readFileSync(new URL('../../fixtures/stats/reference.json', import.meta.url), 'utf8'));

describe('compareRatio: Welch t on the logarithms (ratio of geometric means)', () => {
  test.each(Object.entries(REFERENCE.cases))(
    '%s matches scipy.stats.ttest_ind(log b, log a, equal_var=False)',
    (name, reference) => {
      const result = compareRatio(reference.a, reference.b);
      expect(result.ratio).toBeCloseTo(reference.ratio, 10);
      expect(result.ci95_low).toBeCloseTo(reference.ci95_low, 8);
      expect(result.ci95_high).toBeCloseTo(reference.ci95_high, 8);
      expect(result.log.df).toBeCloseTo(reference.df, 8);
      expect(result.n_a).toBe(reference.a.length);
      expect(result.n_b).toBe(reference.b.length);
    },
  );

  test.each(Object.entries(REFERENCE.cases))(
    '%s: p of "the interval lies inside the region" matches two one-sided tests',
    (name, reference) => {
      const { log } = compareRatio(reference.a, reference.b);
      const [low, high] = reference.region;
      expect(pInside(log, Math.log(low), Math.log(high))).toBeCloseTo(reference.p_inside, 8);
    },
  );

  test('p of "the interval excludes 1" is the two-sided Welch p', () => {
    for (const reference of Object.values(REFERENCE.cases)) {
      const { log } = compareRatio(reference.a, reference.b);
      const p = Math.min(pInside(log, -Infinity, 0), pInside(log, 0, Infinity));
      expect(p).toBeCloseTo(reference.p_two_sided, 8);
    }
  });

  test('is multiplicative: swapping the sides inverts the ratio and its interval', () => {
    const { a, b } = REFERENCE.cases.unequal;
    const there = compareRatio(a, b);
    const back = compareRatio(b, a);
    expect(back.ratio).toBeCloseTo(1 / there.ratio, 12);
    expect(back.ci95_low).toBeCloseTo(1 / there.ci95_high, 12);
    expect(back.ci95_high).toBeCloseTo(1 / there.ci95_low, 12);
  });

  test('fewer than 2 runs on a side or a value ≤ 0: no interval, and a reason', () => {
    expect(compareRatio([100], [50, 52])).toMatchObject({
      ratio: expect.any(Number),
      ci95_low: null,
      log: null,
      reason: expect.stringMatching(/fewer than 2/),
    });
    expect(compareRatio([0, 1], [1, 2])).toMatchObject({
      ratio: null,
      log: null,
      reason: expect.stringMatching(/≤ 0/),
    });
    expect(compareRatio([null, undefined, 10, 11], [20, 22])).toMatchObject({ n_a: 2, n_b: 2 });
  });

  test('two constant samples: the ratio is exact', () => {
    const result = compareRatio([10, 10, 10], [5, 5]);
    expect(result.ratio).toBeCloseTo(0.5, 12);
    expect(result.ci95_low).toBe(result.ratio);
    expect(result.ci95_high).toBe(result.ratio);
    expect(pInside(result.log, Math.log(0.45), Math.log(0.55))).toBe(0);
    expect(pInside(result.log, Math.log(0.55), Math.log(0.6))).toBe(1);
  });
});

describe('adjustHolm', () => {
  test('matches the reference (R: p.adjust(p, "holm"))', () => {
    adjustHolm(REFERENCE.holm.p).forEach((p, i) => expect(p).toBeCloseTo(REFERENCE.holm.adjusted[i], 12));
  });

  test('one test is left alone; adjusted values never exceed 1', () => {
    expect(adjustHolm([0.03])).toEqual([0.03]);
    expect(adjustHolm([0.6, 0.7])).toEqual([1, 1]);
  });
});

describe('estimateRunsNeeded', () => {
  test.each(REFERENCE.runs_needed)(
    'sd $sd_a / $sd_b, ±$halfwidth at α $alpha → $n runs',
    ({ sd_a: sdA, sd_b: sdB, halfwidth, alpha, n }) => {
      expect(estimateRunsNeeded({ sd_a: sdA, sd_b: sdB }, halfwidth, { alpha })).toBe(n);
    },
  );

  test('no room or no spread known: null; never fewer than asked', () => {
    expect(estimateRunsNeeded({ sd_a: 0.1, sd_b: 0.1 }, 0)).toBeNull();
    expect(estimateRunsNeeded({ sd_a: 0.5, sd_b: 0.5 }, 0.0001)).toBeNull();
    expect(estimateRunsNeeded({ sd_a: 0.001, sd_b: 0.001 }, 0.05, { atLeast: 6 })).toBe(6);
  });
});

describe('judgeFamily', () => {
  const halving = compareRatio(REFERENCE.cases.halving.a, REFERENCE.cases.halving.b);
  const equivalent = compareRatio(REFERENCE.cases.equivalent.a, REFERENCE.cases.equivalent.b);
  const wide = compareRatio(REFERENCE.cases['two-runs'].a, REFERENCE.cases['two-runs'].b);

  test('a claim holds, is refuted or stays inconclusive by where the interval lies', () => {
    const [holds] = judgeFamily([halving], expectRegions({ ratio: 0.5, within: 0.1 }));
    const [refuted] = judgeFamily([halving], expectRegions({ ratio: 0.25, within: 0.1 }));
    const [same] = judgeFamily([equivalent], expectRegions({ same: 0.05 }));
    const [unsure] = judgeFamily([wide], expectRegions({ same: 0.05 }));
    expect(holds.verdict).toBe('holds');
    expect(refuted.verdict).toBe('refuted');
    expect(same.verdict).toBe('holds');
    expect(unsure).toMatchObject({ verdict: 'inconclusive', runs_needed: expect.any(Number) });
    expect(unsure.runs_needed).toBeGreaterThan(3);
  });

  test('below / above', () => {
    expect(judgeFamily([halving], expectRegions({ below: 0.8 }))[0].verdict).toBe('holds');
    expect(judgeFamily([halving], expectRegions({ above: 0.8 }))[0].verdict).toBe('refuted');
    expect(judgeFamily([halving], expectRegions({ below: 0.5 }))[0].verdict).toBe('inconclusive');
  });

  test('steps: a change only when the interval excludes 1; no-change only inside the band', () => {
    const regions = stepRegions('ms');
    expect(judgeFamily([halving], regions)[0].verdict).toBe('faster');
    expect(judgeFamily([compareRatio(REFERENCE.cases.halving.b, REFERENCE.cases.halving.a)], regions)[0].verdict).toBe(
      'slower',
    );
    expect(judgeFamily([equivalent], regions)[0].verdict).toBe('no-change');
    expect(judgeFamily([wide], regions)[0].verdict).toBe('inconclusive');
    expect(judgeFamily([halving], stepRegions(''))[0].verdict).toBe('lower');
  });

  test('Holm: an interval that alone would decide may not once the family is counted', () => {
    // p of "inside [0.9, 1.1]" is about 0.03 for this pair: alone it holds; one of four it does not.
    const edge = compareRatio([100, 101, 99, 100.5], [104, 106, 105, 103]);
    const alone = judgeFamily([edge], expectRegions({ ratio: 1, within: 0.07 }))[0];
    expect(alone.p).toBeLessThan(0.05);
    const family = judgeFamily([edge, wide, wide, wide], expectRegions({ ratio: 1, within: 0.07 }));
    expect(family[0]).toMatchObject({ verdict: 'inconclusive', raw: 'holds' });
    expect(family[0].p).toBeCloseTo(4 * alone.p, 10);
  });

  test('a comparison with no interval is inconclusive and counts in the family', () => {
    const [none, clear] = judgeFamily([compareRatio([1], [2]), halving], expectRegions({ below: 0.8 }));
    expect(none).toMatchObject({ verdict: 'inconclusive', runs_needed: null });
    expect(clear.verdict).toBe('holds');
  });
});
