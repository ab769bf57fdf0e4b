import { compareSamples, METHOD_NAMES } from '../../../runner/stats/compare-samples.js';
import { compareRatio } from '../../../runner/stats/ratio.js';
import { judgeFamily } from '../../../runner/verdicts/judge.js';
import { expectRegions } from '../../../runner/verdicts/regions.js';

// Fixed samples (A, B). t-based intervals agree to 8 decimals: jstat's t quantile is good to about 1e-9.
// The reference numbers below are on the log scale (log B/A) and were printed by
// `python3 test/fixtures/stats/methods-reference.py` (SciPy 1.17.1); each block names the call it comes from.
const CASES = {
  spiky5: [
    [2585, 2650, 2700, 2785, 3812],
    [2600, 2640, 2720, 3861, 2705],
  ],
  half6x7: [
    [100, 104, 98, 101, 130, 99],
    [51, 50.2, 52.5, 49.9, 70.1, 50.6, 51.8],
  ],
  three: [
    [10, 11, 12],
    [13, 12.6, 14],
  ],
  rounds8: [
    [1010, 1024, 998, 1500, 1003, 1012, 990, 1019],
    [1105, 1111, 1090, 1660, 1401, 1100, 1085, 1121],
  ],
};

/** (lo, hi) of the p-values below: "same within ±25%" on the log scale. */
const REGION = [Math.log(0.75), Math.log(1.25)];

// ci = scipy.stats.ttest_ind(log b, log a, equal_var=False).confidence_interval(0.95); df = its .df
const WELCH = {
  spiky5: { low: -0.23977135679145545, high: 0.23697599356509547, df: 7.98698179676064 },
  half6x7: { low: -0.8148145219329455, high: -0.5350182190366515, df: 10.977507903399326 },
  three: { low: -0.002427718000035023, high: 0.37063870830257495, df: 3.253115324759818 },
  rounds8: { low: -0.03973591813568475, high: 0.2811292334702401, df: 13.832857473373451 },
};

// r = scipy.stats.ttest_ind(log b, log a, equal_var=False, trim=0.2): r.confidence_interval(0.95), r.df;
// estimate = scipy.stats.trim_mean(log b, 0.2) − scipy.stats.trim_mean(log a, 0.2)
const YUEN = {
  spiky5: {
    estimate: -0.008515525541028524,
    low: -0.08072231791442443,
    high: 0.06369126683236738,
    df: 3.3408320981491797,
  },
  half6x7: {
    estimate: -0.6789512521106387,
    low: -0.7239164960555201,
    high: -0.6339860081657572,
    df: 5.819948252483766,
  },
  three: {
    estimate: 0.18410549515126995,
    low: -0.002427718000035023,
    high: 0.37063870830257495,
    df: 3.253115324759818,
  },
  rounds8: {
    estimate: 0.12876507403866988,
    low: -0.009184067037232513,
    high: 0.2667142151145723,
    df: 5.091121494675681,
  },
};

// estimate = numpy.median(numpy.subtract.outer(log b, log a)); interval: R's wilcox.test(conf.int=TRUE) algorithm
// (qu = qwilcox(0.025, m, n) from the exact distribution, enumerated; [d(qu), d(mn − qu + 1)], confidence
// 1 − 2·pwilcox(qu − 1)); p_inside = min(1, 2·max(scipy.stats.mannwhitneyu(log b − lo, log a, alternative='greater',
// method='exact').pvalue, scipy.stats.mannwhitneyu(log b − hi, log a, alternative='less', method='exact').pvalue))
const HODGES_LEHMANN = {
  spiky5: {
    estimate: 0.0018501392881615786,
    interval: { low: -0.34305207349351186, high: 0.35767444427181605, confidence: 0.9682539682539683 },
    p_inside: 0.09523809523809523,
  },
  half6x7: {
    estimate: -0.6770256496750029,
    interval: { low: -0.7343698963838996, high: -0.6241543090729942, confidence: 0.965034965034965 },
    p_inside: 1,
  },
  three: { estimate: 0.16705408466316607, interval: null, p_inside: 1 },
  rounds8: {
    estimate: 0.09282330530837246,
    interval: { low: 0.07162965613925554, high: 0.3134697407375535, confidence: 0.9501165501165502 },
    p_inside: 0.06495726495726495,
  },
};

// ci = scipy.stats.ttest_rel(log b, log a).confidence_interval(0.95); df = its .df
const PAIRED_T = {
  spiky5: { low: -0.29555410339201366, high: 0.2927587401656537, df: 4 },
  three: { low: 0.014209744196438584, high: 0.3540012461061016, df: 2 },
  rounds8: { low: 0.0483846999197826, high: 0.19300861541477204, df: 7 },
};

// d = log b − log a; estimate = scipy.stats.trim_mean(d, 0.2); s²_w = numpy.var(scipy.stats.mstats.winsorize(d,
// limits=(0.2, 0.2)), ddof=1); se = √((n − 1)·s²_w / (h·(h − 1))), h = n − 2·⌊0.2 n⌋; ± scipy.stats.t.ppf(0.975, h −
// 1)·se
const PAIRED_YUEN = {
  spiky5: { estimate: 0.0031284405082535236, low: -0.017452175509811044, high: 0.02370905652631809, df: 2 },
  three: { estimate: 0.1841054951512701, low: 0.014209744196438584, high: 0.3540012461061016, df: 2 },
  rounds8: { estimate: 0.09163975315382844, low: 0.08281007369148088, high: 0.100469432616176, df: 5 },
};

// estimate = numpy.median of the Walsh averages (d_i + d_j)/2, i ≤ j; interval: R's wilcox.test(d, conf.int=TRUE)
// algorithm (qsignrank from the enumerated distribution); p_inside = min(1, 2·max(scipy.stats.wilcoxon(d − lo,
// alternative='greater', method='exact').pvalue, scipy.stats.wilcoxon(d − hi, alternative='less',
// method='exact').pvalue))
const PAIRED_HODGES_LEHMANN = {
  spiky5: { estimate: 0.0017996922288583406, interval: null, p_inside: 0.125 },
  three: { estimate: 0.17661679132026709, interval: null, p_inside: 0.5 },
  rounds8: {
    estimate: 0.0917099336132523,
    interval: { low: 0.08486184147595122, high: 0.21291054061049763, confidence: 0.9609375 },
    p_inside: 0.015625,
  },
};

// numpy.exp(numpy.median(log b) − numpy.median(log a)): the bootstrap's estimate, the ratio of medians (of an even
// count, the geometric mean of the middle two). Its resamples are seeded here, not comparable to SciPy's.
const MEDIAN_RATIO = {
  spiky5: 1.001851851851852,
  half6x7: 0.5074689670070941,
  three: 1.1818181818181817,
  rounds8: 1.0959411282189109,
};

describe('compareSamples: each method against SciPy', () => {
  test.each(Object.entries(WELCH))(
    'welch, %s: scipy.stats.ttest_ind(equal_var=False), and the same as compareRatio',
    (name, ref) => {
      const [a, b] = CASES[name];
      const result = compareSamples(a, b, { method: 'welch' });
      expect(result.log.low).toBeCloseTo(ref.low, 8);
      expect(result.log.high).toBeCloseTo(ref.high, 8);
      expect(result.confidence).toBe(0.95);
      const today = compareRatio(a, b);
      expect(result.ratio).toBeCloseTo(today.ratio, 12);
      expect(result.ci_low).toBeCloseTo(today.ci95_low, 12);
      expect(result.ci_high).toBeCloseTo(today.ci95_high, 12);
    },
  );

  test.each(Object.entries(YUEN))('yuen, %s: scipy.stats.ttest_ind(equal_var=False, trim=0.2)', (name, ref) => {
    const [a, b] = CASES[name];
    const result = compareSamples(a, b, { method: 'yuen' });
    expect(result.log.estimate).toBeCloseTo(ref.estimate, 10);
    expect(result.log.low).toBeCloseTo(ref.low, 8);
    expect(result.log.high).toBeCloseTo(ref.high, 8);
  });

  test.each(Object.entries(HODGES_LEHMANN))(
    'hodges-lehmann, %s: Moses interval as R, p as the exact Mann–Whitney tests',
    (name, ref) => {
      const [a, b] = CASES[name];
      const result = compareSamples(a, b, { method: 'hodges-lehmann' });
      expect(result.log.estimate).toBeCloseTo(ref.estimate, 12);
      if (ref.interval) {
        expect(result.log.low).toBeCloseTo(ref.interval.low, 12);
        expect(result.log.high).toBeCloseTo(ref.interval.high, 12);
        expect(result.confidence).toBeCloseTo(ref.interval.confidence, 12);
      } else {
        expect(result).toMatchObject({
          ci_low: null,
          ci_high: null,
          confidence: null,
          reason: expect.stringMatching(/covers 90%, short of 95%: 4 runs a side reach it/),
        });
      }
      expect(result.pInside(...REGION)).toBeCloseTo(ref.p_inside, 12);
    },
  );

  test.each(Object.entries(PAIRED_T))('welch paired, %s: scipy.stats.ttest_rel', (name, ref) => {
    const [a, b] = CASES[name];
    const result = compareSamples(a, b, { method: 'welch', paired: true });
    expect(result.log.low).toBeCloseTo(ref.low, 8);
    expect(result.log.high).toBeCloseTo(ref.high, 8);
    expect(result.n_pairs).toBe(a.length);
  });

  test.each(Object.entries(PAIRED_YUEN))(
    'yuen paired, %s: the trimmed mean of the differences with its winsorized se',
    (name, ref) => {
      const [a, b] = CASES[name];
      const result = compareSamples(a, b, { method: 'yuen', paired: true });
      expect(result.log.estimate).toBeCloseTo(ref.estimate, 10);
      expect(result.log.low).toBeCloseTo(ref.low, 8);
      expect(result.log.high).toBeCloseTo(ref.high, 8);
    },
  );

  test.each(Object.entries(PAIRED_HODGES_LEHMANN))(
    'hodges-lehmann paired, %s: signed-rank interval as R, p as the exact Wilcoxon tests',
    (name, ref) => {
      const [a, b] = CASES[name];
      const result = compareSamples(a, b, { method: 'hodges-lehmann', paired: true });
      expect(result.log.estimate).toBeCloseTo(ref.estimate, 12);
      if (ref.interval) {
        expect(result.log.low).toBeCloseTo(ref.interval.low, 12);
        expect(result.log.high).toBeCloseTo(ref.interval.high, 12);
        expect(result.confidence).toBeCloseTo(ref.interval.confidence, 12);
      } else {
        expect(result.ci_low).toBeNull();
        expect(result.reason).toMatch(/short of 95%: 6 rounds with a run on both sides reach it/);
      }
      expect(result.pInside(...REGION)).toBeCloseTo(ref.p_inside, 12);
    },
  );

  test.each(Object.entries(MEDIAN_RATIO))(
    'bootstrap-median, %s: the ratio of medians, the same interval every time',
    (name, ratio) => {
      const [a, b] = CASES[name];
      for (const paired of a.length === b.length ? [false, true] : [false]) {
        const result = compareSamples(a, b, { method: 'bootstrap-median', paired });
        expect(result.ratio).toBeCloseTo(ratio, 12);
        expect(result.ci_low).toBeLessThanOrEqual(result.ratio);
        expect(result.ci_high).toBeGreaterThanOrEqual(result.ratio);
        expect(compareSamples(a, b, { method: 'bootstrap-median', paired })).toMatchObject({
          ci_low: result.ci_low,
          ci_high: result.ci_high,
        });
      }
    },
  );
});

describe('compareSamples: what every method shares', () => {
  const [a, b] = CASES.rounds8;

  test.each(
    METHOD_NAMES.flatMap((method) => [
      [method, false],
      [method, true],
    ]),
  )('%s (paired %s): p < 0.05 exactly when the 95% interval lies inside', (method, paired) => {
    const result = compareSamples(a, b, { method, paired });
    // Regions just inside and just outside each end of the interval.
    const { low, high } = result.log;
    for (const [lo, hi] of [
      [low - 1e-9, high + 1e-9],
      [low + 1e-9, high + 1],
      [low - 1, high - 1e-9],
    ]) {
      const inside = lo < low && high < hi;
      expect(result.pInside(lo, hi) < 0.05).toBe(inside);
    }
  });

  test.each(METHOD_NAMES)('%s is multiplicative: swapping the sides inverts the ratio and its interval', (method) => {
    const there = compareSamples(a, b, { method });
    const back = compareSamples(b, a, { method });
    expect(back.ratio).toBeCloseTo(1 / there.ratio, 12);
    if (method !== 'bootstrap-median') {
      // The bootstrap's resamples differ when the sides swap; its interval inverts only approximately.
      expect(back.ci_low).toBeCloseTo(1 / there.ci_high, 12);
      expect(back.ci_high).toBeCloseTo(1 / there.ci_low, 12);
    }
  });

  test('paired by round: runs pair by their round, whatever their order; unmatched rounds are left out', () => {
    const rounds = { a: [1, 2, 3, 4, 5, 6, 7, 8], b: [8, 7, 6, 5, 4, 3, 2, 1] };
    const reversed = compareSamples(a, [...b].reverse(), { method: 'welch', paired: true, rounds });
    const inOrder = compareSamples(a, b, { method: 'welch', paired: true });
    expect(reversed.log.low).toBeCloseTo(inOrder.log.low, 12);
    const gap = compareSamples(a, b.slice(0, 7), {
      method: 'welch',
      paired: true,
      rounds: { a: rounds.a, b: rounds.a.slice(0, 7) },
    });
    expect(gap).toMatchObject({ n_a: 8, n_b: 7, n_pairs: 7 });
  });

  test('too few runs, or a value ≤ 0: no interval, a reason, and never inside', () => {
    expect(compareSamples([100], [50, 52], { method: 'yuen' })).toMatchObject({
      ci_low: null,
      log: null,
      reason: expect.stringMatching(/fewer than 2 runs/),
    });
    expect(compareSamples([100, 101], [50], { method: 'welch', paired: true })).toMatchObject({
      reason: expect.stringMatching(/fewer than 2 rounds/),
    });
    const zero = compareSamples([0, 1], [1, 2], { method: 'hodges-lehmann' });
    expect(zero).toMatchObject({ ratio: null, reason: expect.stringMatching(/≤ 0/) });
    expect(zero.pInside(-Infinity, Infinity)).toBe(1);
    expect(() => compareSamples([1, 2], [1, 2], { method: 'median-of-means' })).toThrow(
      /unknown comparison method "median-of-means"/,
    );
  });

  test('runs needed: a rank method first needs the runs that reach 95% (4 a side, 6 paired rounds)', () => {
    const [x, y] = CASES.three;
    expect(compareSamples(x, y, { method: 'hodges-lehmann' }).runsNeeded(10)).toBe(4);
    expect(compareSamples(x, y, { method: 'hodges-lehmann', paired: true }).runsNeeded(10)).toBe(6);
    // Holm's strictest step for a family of 3 (α = 0.05 / 3) needs more: 2 / C(2n, n) ≤ 0.0167 from n = 5.
    expect(compareSamples(x, y, { method: 'hodges-lehmann' }).runsNeeded(10, { alpha: 0.05 / 3 })).toBe(5);
    // A narrower target needs more runs, never fewer.
    const result = compareSamples(a, b, { method: 'yuen' });
    expect(result.runsNeeded(0.02)).toBeGreaterThan(result.runsNeeded(0.1));
  });

  test('judgeFamily takes a compareSamples result and judges by its method', () => {
    const [x, y] = CASES.rounds8;
    const regions = expectRegions({ ratio: 1.1, within: 0.1 });
    const [byRank] = judgeFamily([compareSamples(x, y, { method: 'hodges-lehmann', paired: true })], regions);
    const [byWelch] = judgeFamily([compareSamples(x, y, { method: 'welch' })], regions);
    // Paired, the spike of round 4 cancels and round 5's stands alone: the rank interval [1.089, 1.237] is not
    // inside [0.99, 1.21]; Welch's [0.961, 1.325] is not either. Neither holds; each says how many runs would do.
    expect(byRank.verdict).toBe('inconclusive');
    expect(byWelch.verdict).toBe('inconclusive');
    expect(byRank.runs_needed).toBeGreaterThan(8);
    const [decided] = judgeFamily([compareSamples(x, y, { method: 'yuen', paired: true })], regions);
    expect(decided.verdict).toBe('holds');
  });
});
