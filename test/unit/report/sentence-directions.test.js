// Every sentence form that reads a ratio with its interval — the vocabulary itself, the advice's default against the
// recommendation, a step along an axis, compare's rows, a claim's row — walked over intervals on each side of 1 and
// of the margins: a direction word ("slower", "faster", "lower", "higher") only beside an interval that excludes 1,
// "about the same" only inside the margin the question states, "not distinguishable" otherwise; no "1× slower", and
// the number in the words the one its interval is printed around.
import { describeRatio, formatApart, readInterval, READINGS } from '../../../runner/report/ratio-words.js';
import { formatAnswer } from '../../../runner/report/advice.js';
import { formatChange } from '../../../runner/report/verdict-words.js';
import { buildVerdicts } from '../../../runner/report/verdicts.js';
import { describeChange } from '../../../runner/report/compare.js';
import { compareUnpaired } from '../../../runner/verdicts/compare-pair.js';
import { judgeChange } from '../../../runner/verdicts/compare-cells.js';
import { adviseCells } from '../../../runner/verdicts/advice.js';
import { normalizeRecommend } from '../../../runner/config/check-recommend.js';

const DIRECTION = /\b(slower|faster|lower|higher)\b/;
const RATIOS = [0.5, 0.9, 0.96, 0.995, 0.9996, 1, 1.0004, 1.004, 1.04, 1.1, 2];
// Half-widths of the interval on the log scale: from one that excludes 1 everywhere but at 1 to one wider than any
// margin.
const SPREADS = [0.0001, 0.01, 0.03, 0.08, 0.3];
const MARGINS = [0.05, 0.1];

/**
 * What a sentence may say, read back from its words: every "N× word than X [a, b]" must have a printed interval
 * that lies wholly above 1 (the words invert a ratio below 1 with its interval), every "about the same (… [a, b],
 * inside ±m%)" an interval inside the margin, every "not distinguishable (… [a, b])" one that contains 1 or leaves
 * the margin. Returns the forms found, so a test can say it saw each.
 */
function checkWords(words, { margin = null } = {}) {
  const forms = [];
  for (const [, number, , low, high] of words.matchAll(
    /([\d.]+)× (slower|faster|lower|higher) than [^[]*\[([\d.]+), ([\d.]+)\]/g,
  )) {
    expect(Number(low)).toBeGreaterThan(1);
    expect(Number(low)).toBeLessThanOrEqual(Number(number));
    expect(Number(high)).toBeGreaterThanOrEqual(Number(number));
    expect(number).not.toBe('1');
    forms.push('direction');
  }
  for (const [, low, high, shown] of words.matchAll(
    /about the same as [^(]*\(ratio [\d.]+ \[([\d.]+), ([\d.]+)\], inside ±([\d.]+)%\)/g,
  )) {
    const m = Number(shown) / 100;
    if (margin !== null) expect(m).toBeCloseTo(margin, 6);
    expect(Number(low)).toBeGreaterThanOrEqual(1 - m - 0.0005);
    expect(Number(high)).toBeLessThanOrEqual(1 + m + 0.0005);
    forms.push('same');
  }
  for (const [, low, high] of words.matchAll(
    /not distinguishable from [^(]*\(ratio [\d.]+ \[([\d.]+), ([\d.]+)\]\)/g,
  )) {
    const containsOne = Number(low) <= 1 && Number(high) >= 1;
    const leavesMargin = margin === null || Number(low) < 1 - margin || Number(high) > 1 + margin;
    expect(containsOne && leavesMargin).toBe(true);
    forms.push('undistinguished');
  }
  // No direction word outside those forms (a bound's "at most 4% slower than the best" is a bound, not a reading).
  const rest = words
    .replace(/[\d.]+× (slower|faster|lower|higher) than [^[]*\[[^\]]*\]/g, '')
    .replace(/at most [\d.<]+% slower than the best tried/g, '')
    .replace(/the best tried is at most [\d.<]+(%|×) (higher|this)/g, '');
  expect(rest).not.toMatch(/× (slower|faster|lower|higher)/);
  return forms;
}

describe('the vocabulary: every interval on each side of 1 and of the margins', () => {
  const seen = new Set();
  afterAll(() => expect([...seen].sort()).toEqual(['direction', 'same', 'undistinguished']));
  test.each(MARGINS.flatMap((margin) => [true, false].map((lowerIsBetter) => [margin, lowerIsBetter])))(
    'margin %d, lower is better %s',
    (margin, lowerIsBetter) => {
      for (const ratio of RATIOS) {
        for (const spread of SPREADS) {
          const comparison = { ratio, ci95_low: ratio * Math.exp(-spread), ci95_high: ratio * Math.exp(spread) };
          const words = describeRatio(comparison, { lowerIsBetter, than: 'X', margin });
          const reading = readInterval(comparison, margin);
          const excludesOne = comparison.ci95_low > 1 || comparison.ci95_high < 1;
          expect(DIRECTION.test(words)).toBe(excludesOne);
          if (excludesOne) {
            const [, word] = /× (\w+) than/.exec(words);
            const worse = ratio > 1;
            expect(word).toBe(lowerIsBetter ? (worse ? 'slower' : 'faster') : worse ? 'lower' : 'higher');
          } else if (reading === READINGS.same) expect(words).toMatch(/^about the same as X \(ratio /);
          else expect(words).toMatch(/^not distinguishable from X \(ratio /);
          for (const form of checkWords(words, { margin })) seen.add(form);
        }
      }
    },
  );

  test('a verdict of a family may take a direction back, never add one the interval does not give', () => {
    const narrow = { ratio: 1.1, ci95_low: 1.05, ci95_high: 1.15 };
    const wide = { ratio: 1.1, ci95_low: 0.9, ci95_high: 1.3 };
    const options = { lowerIsBetter: true, than: 'X', margin: 0.05 };
    expect(describeRatio(narrow, { ...options, reading: READINGS.undistinguished })).toMatch(/^not distinguishable/);
    expect(describeRatio(wide, { ...options, reading: READINGS.worse })).toMatch(/^not distinguishable/);
    expect(describeRatio({ ratio: 1.03 }, options)).toBe('not distinguishable from X (ratio 1.03, no interval)');
    expect(describeRatio({ ratio: NaN }, options)).toBe('not comparable with X (no ratio)');
  });

  test('a bound that excludes 1 narrowly never prints as 1', () => {
    expect(formatApart(1.0004)).toBe('1.0004');
    expect(formatApart(0.99996)).toBe('0.99996');
    expect(formatApart(1)).toBe('1');
    expect(formatApart(1.234)).toBe('1.23');
  });
});

test("a change's sign follows its ratio; below the printing precision it is 0%", () => {
  for (const ratio of RATIOS) {
    const change = formatChange(ratio);
    if (change === '0%') expect(Math.abs(ratio - 1)).toBeLessThan(0.0005);
    else expect(change.startsWith('−')).toBe(ratio < 1);
  }
});

// Two cells whose wall_ms ratio B / A is `ratio`, 6 runs each with noise of `noise`, one step apart in the pool.
function pair(ratio, noise = 0.01, metric = 'wall_ms') {
  const jitters = [1, 1.01, 0.99, 1.005, 0.995, 1].map((jitter) => 1 + (jitter - 1) * (noise / 0.01));
  const http = metric !== 'wall_ms';
  const cell = (pool, factor) => ({
    cell: `p${pool}`,
    workload: http ? 'http' : 'pbkdf2',
    values: { workload: http ? 'http' : 'pbkdf2', cpus: 2, uv_threadpool_size: pool },
    runs: jitters.map((jitter, i) => ({ [metric]: 1000 * factor * jitter, repetition: i + 1 })),
  });
  return [cell(2, 1), cell(4, ratio)];
}
const AXES = ['workload', 'cpus', 'uv_threadpool_size'];
const GRID = [0.5, 0.97, 0.99, 1, 1.01, 1.03, 1.06, 2].flatMap((ratio) =>
  [0.002, 0.01, 0.05].map((noise) => [ratio, noise]),
);

test.each(GRID)('a step at ratio %d, noise %d: a direction only where its interval excludes 1', (ratio, noise) => {
  const { steps } = buildVerdicts(pair(ratio, noise), AXES, []);
  for (const row of steps) {
    const { ci95_low: low, ci95_high: high } = row.comparison;
    if (DIRECTION.test(row.words)) expect(low > 1 || high < 1).toBe(true);
    if (/about the same/.test(row.words)) expect(low >= 0.95 && high <= 1.05).toBe(true);
    if (/not distinguishable/.test(row.words))
      expect(DIRECTION.test(row.words.replace(/the interval alone says \w+/, ''))).toBe(false);
  }
});

test.each(GRID)('a claim at ratio %d, noise %d: its words carry no direction word', (ratio, noise) => {
  const claim = { says: 'x', metric: null, compare: { uv_threadpool_size: [2, 4] }, where: {}, expect: { same: 0.05 } };
  for (const row of buildVerdicts(pair(ratio, noise), AXES, [claim]).claims) expect(row.words).not.toMatch(DIRECTION);
});

describe.each([
  ['wall_ms', true],
  ['requests_per_sec', false],
])('advice on %s: the default against the recommendation', (metric, lowerIsBetter) => {
  test.each(GRID)('ratio %d, noise %d', (ratio, noise) => {
    for (const within of MARGINS) {
      const answers = adviseCells(pair(ratio, noise, metric), AXES, normalizeRecommend({ within, metric }));
      for (const answer of answers) {
        const words = formatAnswer(answer);
        checkWords(words, { margin: within });
        const comparison = answer.default?.comparison;
        if (!comparison) continue;
        const excludesOne = comparison.ci95_low > 1 || comparison.ci95_high < 1;
        expect(/× (slower|faster|lower|higher) than the recommendation/.test(words)).toBe(excludesOne);
        expect(words).toMatch(
          lowerIsBetter ? /slower|faster|same|distinguishable|best/ : /lower|higher|same|distinguishable|best/,
        );
      }
    }
  });
});

test.each(GRID)("compare's words at ratio %d, noise %d, in the metric's direction", (ratio, noise) => {
  const x = [1, 1.01, 0.99, 1.005, 0.995].map((jitter) => 1000 * (1 + (jitter - 1) * (noise / 0.01)));
  const y = [1.005, 0.99, 1, 1.01, 0.995].map((jitter) => 1000 * ratio * (1 + (jitter - 1) * (noise / 0.01)));
  const result = compareUnpaired(x, y);
  for (const better of ['lower', 'higher']) {
    for (const threshold of MARGINS) {
      const { verdict } = judgeChange(result, better, threshold);
      const words = describeChange(result, { verdict, better, threshold, n: [x.length, y.length] });
      checkWords(words, { margin: threshold });
      if (DIRECTION.test(words)) expect(result.ci95_low > 1 || result.ci95_high < 1).toBe(true);
    }
  }
  expect(describeChange(result, { verdict: 'inconclusive', better: 'lower', threshold: 0.05, n: [4, 1] })).toBe(
    'not judged: fewer than 2 runs that count in B',
  );
});
