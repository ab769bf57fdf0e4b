// Advice on cells of known truth: per budget, the cheapest setting as good as the best within the margin, the
// default against it, and "settled" only when no setting is open — never a wrong settled answer under noise.
import { adviseCells, countResources } from '../../../runner/verdicts/advice.js';
import { normalizeRecommend } from '../../../runner/config/check-recommend.js';
import { createRandom } from '../../../runner/plan/run-order.js';
import { formatAnswer } from '../../../runner/report/advice.js';

const AXES = ['workload', 'cpus', 'uv_threadpool_size'];

// A cell of pbkdf2 at `cpus` with pool `pool`, whose wall_ms runs are `values`.
function cell(cpus, pool, values, extra = {}) {
  return {
    cell: `c${cpus}-${pool}`,
    workload: 'pbkdf2',
    values: { workload: 'pbkdf2', cpus, uv_threadpool_size: pool },
    runs: values.map((wall_ms, i) => ({ wall_ms, repetition: i + 1, ...extra })),
  };
}

// Known truth: at 2 CPUs pool 1 takes twice as long; pools 2, 4, 8 are within 2% of each other.
const TRUTH = { 1: 2.0, 2: 1.0, 4: 0.99, 8: 1.01 };
function folder(noise, random, n = 6) {
  return Object.entries(TRUTH).map(([pool, factor]) =>
    cell(
      2,
      Number(pool),
      Array.from({ length: n }, () => 1000 * factor * (1 + noise(random))),
    ),
  );
}
const tight = (random) => (random() - 0.5) * 0.01;
const wild = (random) => (random() - 0.5) * 0.9;

test('known truth, tight runs: the smallest of the as-good pools is recommended, pool 1 eliminated, settled', () => {
  const [answer] = adviseCells(folder(tight, createRandom(1)), AXES, normalizeRecommend({}));
  expect(answer.budget).toBe('cpus=2');
  expect(answer.status).toBe('settled');
  expect(answer.recommended.label).toBe('uv_threadpool_size=2');
  expect(answer.as_good.map((setting) => setting.label).sort()).toEqual([
    'uv_threadpool_size=2',
    'uv_threadpool_size=4',
    'uv_threadpool_size=8',
  ]);
  expect(answer.eliminated.map((setting) => setting.label)).toEqual(['uv_threadpool_size=1']);
  expect(answer.eliminated[0].why).toMatch(/^2\.\d+× slower \[[\d.]+, [\d.]+\] than the best$/);
  // Node's default (pool 4) against the recommendation: the same within the noise.
  expect(answer.default.label).toBe('uv_threadpool_size=4');
  expect(answer.default.comparison.ratio).toBeCloseTo(0.99, 1);
});

test('the same truth with ±45% scatter: open in every trial, never a wrong settled answer', () => {
  const random = createRandom(7);
  for (let trial = 0; trial < 50; trial++) {
    const [answer] = adviseCells(folder(wild, random, 3), AXES, normalizeRecommend({}));
    if (answer.status === 'settled')
      expect(['uv_threadpool_size=2', 'uv_threadpool_size=4', 'uv_threadpool_size=8']).toContain(
        answer.recommended.label,
      );
    expect(
      answer.status === 'open' || answer.eliminated.every((setting) => setting.label === 'uv_threadpool_size=1'),
    ).toBe(true);
  }
});

test('a constraint a setting confidently breaks eliminates it; one it may break keeps the answer open', () => {
  const cells = [
    cell(2, 2, [1000, 1001, 999, 1000], { peak_rss_mb: 90 }),
    cell(2, 4, [1000, 1002, 998, 1001], { peak_rss_mb: 60 }),
  ];
  const breaks = adviseCells(cells, AXES, normalizeRecommend({ require: { peak_rss_mb: { below: 80 } } }))[0];
  expect(breaks.recommended.label).toBe('uv_threadpool_size=4');
  expect(breaks.eliminated[0].why).toMatch(/peak_rss_mb \[90, 90\] is not below 80/);
  expect(breaks.status).toBe('settled');
  const noisy = [
    cell(2, 2, [1000, 1001, 999], { peak_rss_mb: 90 }),
    {
      ...cell(2, 4, [1000, 1002, 998]),
      runs: [60, 95, 75].map((peak_rss_mb, i) => ({ wall_ms: 1000 + i, repetition: i + 1, peak_rss_mb })),
    },
  ];
  expect(adviseCells(noisy, AXES, normalizeRecommend({ require: { peak_rss_mb: { below: 80 } } }))[0].status).toBe(
    'open',
  );
});

test('a rate metric: higher is better, and the default is "× lower"', () => {
  const http = (workers, values) => ({
    cell: `w${workers}`,
    workload: 'http',
    values: { workload: 'http', cpus: 2, workers },
    runs: values.map((requests_per_sec) => ({ requests_per_sec })),
  });
  const [answer] = adviseCells(
    [http(0, [50, 51, 49, 50]), http(2, [100, 101, 99, 100]), http(4, [101, 100, 102, 100])],
    ['workload', 'cpus', 'workers'],
    normalizeRecommend({ within: '5%' }),
  );
  expect(answer.better).toBe('higher');
  expect(answer.recommended.label).toBe('workers=2');
  expect(formatAnswer(answer)).toMatch(/the default \(workers=0, median 50\) is 2(\.0\d*)?× lower/);
  expect(formatAnswer(answer)).toContain('eliminated: workers=0 (median 50: ');
});

test('no knob, no advice; fewest threads and processes first', () => {
  expect(adviseCells([cell(1, 4, [1, 2]), cell(2, 4, [1, 2])], AXES, undefined)).toEqual([]);
  expect(countResources({ uv_threadpool_size: 2 })).toBeLessThan(countResources({ uv_threadpool_size: 4 }));
  expect(countResources({ cluster: 2 })).toBeGreaterThan(countResources({ workers: 1 }));
});
