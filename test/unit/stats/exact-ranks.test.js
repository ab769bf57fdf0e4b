import { cdfMannWhitney, cdfSignedRank } from '../../../runner/stats/exact-ranks.js';

// P(U ≤ u), u = 0..5, enumerated over every arrangement (itertools.combinations) by
// test/fixtures/stats/methods-reference.py, which also checks them against
// scipy.stats.mannwhitneyu(y, x, alternative='less', method='exact').pvalue (SciPy 1.17.1).
const MANN_WHITNEY = {
  '3,3': [0.05, 0.1, 0.2, 0.35, 0.5, 0.65],
  '5,5': [
    0.003968253968253968, 0.007936507936507936, 0.015873015873015872, 0.027777777777777776, 0.047619047619047616,
    0.07539682539682539,
  ],
  '6,7': [
    0.0005827505827505828, 0.0011655011655011655, 0.002331002331002331, 0.004079254079254079, 0.006993006993006993,
    0.011072261072261072,
  ],
  '8,8': [
    7.77000777000777e-5, 0.0001554001554001554, 0.0003108003108003108, 0.0005439005439005439, 0.0009324009324009324,
    0.0014763014763014763,
  ],
};

// P(T+ ≤ t), t = 0..5, enumerated over every sign pattern (itertools.product), as R's psignrank.
const SIGNED_RANK = {
  5: [0.03125, 0.0625, 0.09375, 0.15625, 0.21875, 0.3125],
  6: [0.015625, 0.03125, 0.046875, 0.078125, 0.109375, 0.15625],
  8: [0.00390625, 0.0078125, 0.01171875, 0.01953125, 0.02734375, 0.0390625],
};

describe('exact rank distributions', () => {
  test.each(Object.entries(MANN_WHITNEY))(
    'Mann–Whitney U with %s values matches the enumeration',
    (sizes, expected) => {
      const [m, n] = sizes.split(',').map(Number);
      expected.forEach((p, u) => expect(cdfMannWhitney(u, m, n)).toBeCloseTo(p, 14));
    },
  );

  test.each(Object.entries(SIGNED_RANK))('signed rank T+ of %s differences matches the enumeration', (n, expected) => {
    expected.forEach((p, t) => expect(cdfSignedRank(t, Number(n))).toBeCloseTo(p, 14));
  });

  test('the tails: below 0 nothing, at the top everything, symmetric around the middle', () => {
    expect(cdfMannWhitney(-1, 5, 5)).toBe(0);
    expect(cdfMannWhitney(25, 5, 5)).toBe(1);
    // P(U ≤ u) = 1 − P(U ≤ mn − u − 1) by symmetry.
    expect(cdfMannWhitney(20, 5, 6)).toBeCloseTo(1 - cdfMannWhitney(9, 5, 6), 14);
    expect(cdfSignedRank(-1, 6)).toBe(0);
    expect(cdfSignedRank(21, 6)).toBe(1);
    expect(cdfSignedRank(15, 6)).toBeCloseTo(1 - cdfSignedRank(5, 6), 14);
  });

  test('from 50 values a side, the normal approximation with continuity correction (as R)', () => {
    // Mean m·n/2 = 1250, sd √(m·n·(m+n+1)/12) = √(2500·101/12): the middle is one half.
    expect(cdfMannWhitney(1249.5, 50, 50)).toBeCloseTo(0.5, 10);
    expect(cdfSignedRank(637, 50)).toBeCloseTo(0.5, 2);
  });
});
