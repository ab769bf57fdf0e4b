// Every sentence form that puts a direction word beside a number — the advice's ratio words and bounds, a step's
// verdict, a claim's change — checked against its numbers over a grid of ratios: no word the number contradicts, no
// "1× slower", and the number in the words the one its interval is printed around.
import { describeRatio } from '../../../runner/report/ratio-words.js';
import { formatAnswer } from '../../../runner/report/advice.js';
import { formatChange } from '../../../runner/report/verdict-words.js';
import { buildVerdicts } from '../../../runner/report/verdicts.js';
import { adviseCells } from '../../../runner/verdicts/advice.js';
import { normalizeRecommend } from '../../../runner/config/check-recommend.js';
import { formatRatio } from '../../../runner/verdicts/format-ratio.js';

const RATIOS = [0.5, 0.9, 0.995, 0.9996, 1, 1.0004, 1.004, 1.1, 2];
const WORDS = { true: { worse: 'slower', better: 'faster' }, false: { worse: 'lower', better: 'higher' } };

describe.each([true, false])('ratio words, lower is better: %s', (lowerIsBetter) => {
  test.each(RATIOS)('ratio %d: the word follows the number', (ratio) => {
    const words = describeRatio(
      { ratio, ci95_low: ratio * 0.98, ci95_high: ratio * 1.02 },
      { lowerIsBetter, than: 'X' },
    );
    const shown = formatRatio(Math.max(ratio, 1 / ratio));
    if (shown === '1') {
      expect(words).toMatch(/^about the same as X \(ratio 1\.00 \[/);
      return;
    }
    const [, number, word] = /^([\d.]+)× (\w+) than X/.exec(words);
    expect(number).toBe(shown);
    expect(word).toBe(ratio > 1 ? WORDS[lowerIsBetter].worse : WORDS[lowerIsBetter].better);
    // The interval is around the number said: inverted with it when the ratio is below 1.
    const [, low, high] = /\[([\d.]+), ([\d.]+)\]$/.exec(words);
    expect(Number(low)).toBeLessThanOrEqual(Number(number));
    expect(Number(high)).toBeGreaterThanOrEqual(Number(number));
  });
});

test("a change's sign follows its ratio; below the printing precision it is 0%", () => {
  for (const ratio of RATIOS) {
    const change = formatChange(ratio);
    if (change === '0%') expect(Math.abs(ratio - 1)).toBeLessThan(0.0005);
    else expect(change.startsWith('−')).toBe(ratio < 1);
  }
});

// Two cells whose wall_ms ratio B / A is `ratio`, 6 runs each with a little noise, one step apart in the pool.
function pair(ratio) {
  const runs = (factor) =>
    [1, 1.01, 0.99, 1.005, 0.995, 1].map((jitter, i) => ({ wall_ms: 1000 * factor * jitter, repetition: i + 1 }));
  const cell = (pool, factor) => ({
    cell: `p${pool}`,
    workload: 'pbkdf2',
    values: { workload: 'pbkdf2', cpus: 2, uv_threadpool_size: pool },
    runs: runs(factor),
  });
  return [cell(1, 1), cell(2, ratio)];
}

test.each([0.5, 0.97, 1, 1.03, 2])(
  'a step at ratio %d: faster only with a negative change, slower only with a positive one',
  (ratio) => {
    const { steps } = buildVerdicts(pair(ratio), ['workload', 'cpus', 'uv_threadpool_size'], []);
    for (const row of steps) {
      const [, sign] = /wall_ms ([−+]?)[\d.]+%/.exec(row.words) ?? [];
      if (row.verdict === 'faster') expect(sign).toBe('−');
      if (row.verdict === 'slower') expect(sign).toBe('+');
      if (/ faster$| slower$/.test(row.words)) expect(row.words.endsWith(row.verdict)).toBe(true);
    }
  },
);

test.each([0.5, 1, 2])('a claim at ratio %d: its B/A and its change agree in direction', (ratio) => {
  const claim = { says: 'x', metric: null, compare: { uv_threadpool_size: [1, 2] }, where: {}, expect: { below: 1.5 } };
  const rows = buildVerdicts(pair(ratio), ['workload', 'cpus', 'uv_threadpool_size'], [claim]).claims;
  const row = rows.find((each) => each.kind === 'claim');
  const [, ab, change] = /B\/A ([\d.]+) \[[^\]]+\] = ([−+]?[\d.]+%)/.exec(row.words);
  if (Number(ab) < 1) expect(change.startsWith('−')).toBe(true);
  if (Number(ab) > 1) expect(change.startsWith('+')).toBe(true);
});

test.each([
  ['wall_ms', 'slower'],
  ['requests_per_sec', 'lower'],
])('the advice bound on %s reads "%s", and the default is said the way its ratio goes', (metric, word) => {
  const http = metric === 'requests_per_sec';
  const cell = (pool, factor) => ({
    cell: `p${pool}`,
    workload: http ? 'http' : 'pbkdf2',
    values: { workload: http ? 'http' : 'pbkdf2', cpus: 2, uv_threadpool_size: pool },
    runs: [1, 1.01, 0.99, 1.005].map((jitter, i) => ({ [metric]: 1000 * factor * jitter, repetition: i + 1 })),
  });
  const [answer] = adviseCells(
    [cell(2, 1), cell(4, 1.001)],
    ['workload', 'cpus', 'uv_threadpool_size'],
    normalizeRecommend({}),
  );
  const words = formatAnswer(answer);
  expect(words).toMatch(new RegExp(`(at most [\\d.]+% ${word} than the best tried|the best of those tried) \\(95%\\)`));
  expect(words).not.toMatch(/ 1× /);
});
