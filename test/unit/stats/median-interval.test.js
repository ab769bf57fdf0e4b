import { intervalOfMedian } from '../../../runner/stats/median-interval.js';

describe('intervalOfMedian (order statistics, binomial coverage)', () => {
  test('n < 6: [min, max] with its true coverage, 1 − 2 · 0.5^n', () => {
    expect(intervalOfMedian([3, 1, 2])).toEqual({ low: 1, high: 3, coverage: 0.75 });
    expect(intervalOfMedian([5, 1, 4, 2, 3])).toEqual({ low: 1, high: 5, coverage: 0.9375 });
    expect(intervalOfMedian([1])).toBeNull();
  });

  // Reference: the textbook table of distribution-free median intervals (e.g. Conover, Practical Nonparametric
  // Statistics): n = 10 → [x(2), x(9)] at 97.85%; n = 20 → [x(6), x(15)] at 95.86%.
  test('n = 10 and 20 match the textbook order statistics', () => {
    const ten = intervalOfMedian([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect([ten.low, ten.high]).toEqual([2, 9]);
    expect(ten.coverage).toBeCloseTo(0.978515625, 9);
    const twenty = intervalOfMedian(Array.from({ length: 20 }, (_, i) => i + 1));
    expect([twenty.low, twenty.high]).toEqual([6, 15]);
    expect(twenty.coverage).toBeCloseTo(0.958610535, 8);
  });
});
