// Advice on cells of known truth: per budget, the cheapest setting whose bound "at most U% slower than the best
// tried (95%)" is within the margin, the default against it, "open" with the rounds still needed otherwise — and a
// bound that holds: never a settled answer on a setting truly worse than the margin.
import { adviseCells, countProcesses, orderByCost } from '../../../runner/verdicts/advice.js';
import { normalizeRecommend } from '../../../runner/config/check-recommend.js';
import { createRandom } from '../../../runner/plan/run-order.js';
import { sortCellRuns } from '../../../runner/domain/delivery.js';
import { formatAnswer, buildAdviceTable } from '../../../runner/report/advice.js';

const AXES = ['workload', 'cpus', 'uv_threadpool_size'];

// A cell of pbkdf2 at `cpus` with pool `pool`, whose wall_ms runs are `values`, one a round.
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
function folder(noise, random, n = 6, truth = TRUTH) {
  // A round's shift hits every setting of the round alike (the host's noise is shared in time).
  const shifts = Array.from({ length: n }, () => noise(random));
  return Object.entries(truth).map(([pool, factor]) =>
    cell(
      2,
      Number(pool),
      shifts.map((shift) => 1000 * factor * (1 + shift) * (1 + noise(random) / 3)),
    ),
  );
}
const tight = (random) => (random() - 0.5) * 0.01;
const wild = (random) => (random() - 0.5) * 0.5;

test("known truth, tight runs: Node's default within 5% of the best is kept, with its bound; settled", () => {
  const [answer] = adviseCells(folder(tight, createRandom(1)), AXES, normalizeRecommend({}));
  expect(answer.budget).toBe('cpus=2');
  expect(answer.status).toBe('settled');
  // Idle pool threads cost nothing in production: pool 1 and 2 are not cheaper than Node's 4, so a change buys nothing.
  expect(answer.recommended.label).toBe('uv_threadpool_size=4');
  expect(answer.recommended.today).toBe(true);
  expect(answer.bound_pct).toBeGreaterThanOrEqual(0);
  expect(answer.bound_pct).toBeLessThanOrEqual(5);
  expect(answer.cheaper).toEqual([]);
  expect(answer.default).toMatchObject({ label: 'uv_threadpool_size=4', is_recommended: true, source: 'node' });
  expect(formatAnswer(answer)).toMatch(
    /^cpus=2 \(pbkdf2, wall_ms, lower is better\): keep uv_threadpool_size=4 \(Node's default\) — (at most [\d.]+% slower than the best tried|the best of those tried) \(95%\), on 6 runs; settled\.$/,
  );
});

test("known truth: Node's default confidently worse, so the answer is a change, and says why", () => {
  const truth = { 1: 2.0, 2: 1.0, 4: 1.2, 8: 1.01 };
  const [answer] = adviseCells(folder(tight, createRandom(1), 6, truth), AXES, normalizeRecommend({}));
  expect(answer.status).toBe('settled');
  expect(answer.recommended.label).toBe('uv_threadpool_size=2');
  expect(answer.cheaper.map((setting) => [setting.label, setting.state])).toEqual([
    ['uv_threadpool_size=4', 'eliminated'],
    ['uv_threadpool_size=1', 'eliminated'],
  ]);
  expect(formatAnswer(answer)).toMatch(
    /^cpus=2 \(pbkdf2, wall_ms, lower is better\): use uv_threadpool_size=2 — (at most [\d.]+% slower than the best tried|the best of those tried) \(95%\), on 6 runs; uv_threadpool_size=1: confidently more than 5% worse than uv_threadpool_size=\d; Node's default \(uv_threadpool_size=4\): confidently more than 5% worse than uv_threadpool_size=\d; it is 1\.\d+× slower than the recommendation \[[\d.]+, [\d.]+\]; settled; to deploy it: UV_THREADPOOL_SIZE=2 in the service's environment \(docs\/own-code\.md\)\.$/,
  );
});

test('the table lists every setting cheapest in production first, with its runs, median, bound and state', () => {
  const [answer] = adviseCells(folder(tight, createRandom(1)), AXES, normalizeRecommend({}));
  const table = buildAdviceTable({ ...answer, words: formatAnswer(answer) });
  expect(table.header).toEqual(['setting', 'runs', 'median wall_ms', 'at most slower than the best (95%)', 'state']);
  expect(table.rows.map((row) => [row[0], row[1], row[4]])).toEqual([
    ['uv_threadpool_size=4', '6', 'keep this (settled)'],
    ['uv_threadpool_size=1', '6', 'eliminated'],
    ['uv_threadpool_size=2', '6', 'not needed'],
    ['uv_threadpool_size=8', '6', 'not needed'],
  ]);
  expect(table.rows[0][3]).toMatch(/^[\d.]+%$/);
});

test('the same truth with ±25% scatter: a settled answer is never a setting truly more than 5% worse, and the bound holds', () => {
  const random = createRandom(7);
  const trueGapPct = (label) => {
    const pool = Number(label.split('=')[1]);
    return 100 * (TRUTH[pool] / Math.min(...Object.values(TRUTH)) - 1);
  };
  let failures = 0;
  for (let trial = 0; trial < 60; trial++) {
    const [answer] = adviseCells(folder(wild, random, 4), AXES, normalizeRecommend({}));
    if (answer.status === 'settled') expect(trueGapPct(answer.recommended.label)).toBeLessThanOrEqual(5);
    if (answer.bound_pct !== null && trueGapPct(answer.recommended.label) > answer.bound_pct) failures++;
  }
  expect(failures).toBeLessThanOrEqual(3);
});

test('open: the rounds that would probably settle it, or that the cap will not', () => {
  // Pools 2 and 4 alike, with ±5% noise: neither shown within 5% of the best at 3 rounds.
  const noisy = [cell(1, 2, [1000, 1100, 950]), cell(1, 4, [1050, 980, 1020])];
  const [withCap] = adviseCells(noisy, AXES, normalizeRecommend({}), { cap: 10 });
  expect(withCap.status).toBe('open');
  expect(formatAnswer(withCap)).toMatch(
    /leading, not settled: uv_threadpool_size=\d — at most [\d.]+% slower than the best tried \(95%\), on 3 runs; .*open: (about \d+ more rounds? would probably bring it under 5%|the 7 rounds left under the cap will probably not bring it under 5%); to deploy it: .*\.$/,
  );
  const [atCap] = adviseCells(noisy, AXES, normalizeRecommend({}), { cap: 3 });
  expect(formatAnswer(atCap)).toMatch(
    /open: the cap of rounds is reached; at this spread 5% is out of reach; to deploy it: /,
  );
});

test('a constraint a setting confidently breaks eliminates it; one it may break keeps the answer open', () => {
  const cells = [
    cell(2, 2, [1000, 1001, 999, 1000], { peak_rss_mb: 90 }),
    cell(2, 4, [1000, 1002, 998, 1001], { peak_rss_mb: 60 }),
  ];
  const breaks = adviseCells(cells, AXES, normalizeRecommend({ require: { peak_rss_mb: { below: 80 } } }))[0];
  expect(breaks.recommended.label).toBe('uv_threadpool_size=4');
  expect(breaks.eliminated[0].reason).toMatch(/peak_rss_mb \[90, 90\] is not below 80/);
  expect(breaks.status).toBe('settled');
  const noisy = [
    cell(2, 2, [1000, 1001, 999], { peak_rss_mb: 90 }),
    {
      ...cell(2, 4, [1000, 1002, 998]),
      runs: [60, 95, 75].map((peak_rss_mb, i) => ({ wall_ms: 1000 + i, repetition: i + 1, peak_rss_mb })),
    },
  ];
  const open = adviseCells(noisy, AXES, normalizeRecommend({ require: { peak_rss_mb: { below: 80 } } }))[0];
  expect(open.status).toBe('open');
  expect(open.reason).toMatch(/may not meet peak_rss_mb/);
});

test('a rate metric: higher is better, the bound reads "the best is at most U% higher", the default "× lower"', () => {
  const http = (workers, values) => ({
    cell: `w${workers}`,
    workload: 'http',
    values: { workload: 'http', cpus: 2, workers },
    runs: values.map((requests_per_sec, i) => ({ requests_per_sec, repetition: i + 1 })),
  });
  const [answer] = adviseCells(
    [http(0, [50, 51, 49, 50]), http(2, [100, 101, 99, 100]), http(4, [101, 100, 102, 100])],
    ['workload', 'cpus', 'workers'],
    normalizeRecommend({ within: '5%' }),
  );
  expect(answer.better).toBe('higher');
  expect(answer.recommended.label).toBe('workers=2');
  // The best tried is the highest rate (the estimates are −log for a rate: the least is the best).
  expect(answer.best.label).toBe('workers=4');
  // A rate's bound: how much higher the best tried can be, never "more than 100% lower".
  expect(formatAnswer(answer)).toMatch(
    /use workers=2 — (the best tried is at most [\d.]+% higher|the best of those tried) \(95%\)/,
  );
  expect(formatAnswer(answer)).toMatch(
    /Node's default \(workers=0\): .*; it is 2(\.0\d*)?× lower than the recommendation/,
  );
  expect(formatAnswer(answer)).toContain("Node's default (workers=0): confidently more than 5% worse than workers=");
});

test('p99 at a fixed rate (an open loop): the bound reads "p99 at most U% above the best tried"', () => {
  const http = (pool, values) => ({
    cell: `p${pool}`,
    workload: 'http',
    values: { workload: 'http', cpus: 1, uv_threadpool_size: pool },
    runs: values.map((latency_p99_ms, i) => ({ latency_p99_ms, repetition: i + 1 })),
  });
  const [answer] = adviseCells(
    [http(1, [90, 92, 88, 91]), http(4, [40, 41, 39, 40.5]), http(8, [40.2, 40.8, 39.5, 40.1])],
    ['workload', 'cpus', 'uv_threadpool_size'],
    normalizeRecommend({ metric: 'latency_p99_ms' }),
  );
  expect(answer.better).toBe('lower');
  expect(formatAnswer(answer)).toMatch(
    /: (keep|use) uv_threadpool_size=4 (\(Node's default\) )?— (p99 at most [\d.]+% above the best tried|the best of those tried) \(95%\)/,
  );
});

test("a budget whose load generator shared the server's CPUs says so in the answer (loader_shared)", () => {
  const http = (pool, shared) => ({
    cell: `s${pool}`,
    workload: 'http',
    values: { workload: 'http', cpus: 1.5, uv_threadpool_size: pool },
    runs: [100, 101, 99].map((requests_per_sec, i) => ({ requests_per_sec, repetition: i + 1, loader_shared: shared })),
  });
  const axes = ['workload', 'cpus', 'uv_threadpool_size'];
  const [shared] = adviseCells([http(1, true), http(4, true)], axes, normalizeRecommend({}));
  const [apart] = adviseCells([http(1, false), http(4, false)], axes, normalizeRecommend({}));
  expect([shared.loader_shared, apart.loader_shared]).toEqual([true, false]);
});

test('a budget the host did not give its CPUs is not measured: no recommendation, no bound, the CPUs the runs got', () => {
  // Every run of the 2-CPU budget while another program kept one CPU busy: interference_pct 50, disturbed.
  const busy = (pool, values) => {
    const rows = values.map((wall_ms, i) => ({
      ...{ wall_ms, repetition: i + 1, status: 'ok', interference_pct: 50, disturbed: true },
      ...{ seen_cpu_quota: 2, seen_cpuset: '0-1', seen_available_parallelism: 2 },
    }));
    return { ...cell(2, pool, []), ...sortCellRuns(rows) };
  };
  const quiet = (pool, values) => {
    const rows = values.map((wall_ms, i) => ({
      ...{ wall_ms, repetition: i + 1, status: 'ok', interference_pct: 0.5, disturbed: false },
      ...{ seen_cpu_quota: 1, seen_cpuset: '0-1', seen_available_parallelism: 2 },
    }));
    return { ...cell(1, pool, []), ...sortCellRuns(rows) };
  };
  const answers = adviseCells(
    [
      busy(1, [2000, 2010, 1990]),
      busy(2, [1000, 1005, 995]),
      quiet(1, [2000, 2010, 1990]),
      quiet(2, [1000, 1005, 995]),
    ],
    AXES,
    normalizeRecommend({}),
  );
  const [two, one] = ['cpus=2', 'cpus=1'].map((budget) => answers.find((answer) => answer.budget === budget));
  expect(two).toMatchObject({ status: 'not measured', recommended: null, bound_pct: null, clean_runs: 0 });
  expect(two.delivery).toMatchObject({ cpus: 2, got: 1, runs: 6 });
  expect(two.settings.map((setting) => setting.state)).toEqual(['not measured', 'not measured']);
  expect(formatAnswer(two)).toBe(
    'cpus=2 (pbkdf2, wall_ms, lower is better): not measured here: the host gave these runs about 1 CPU of 2, so no ' +
      'setting is recommended and no bound given for this budget; measure it again on a quieter host ' +
      '(docs/report.md#which-runs-count).',
  );
  // The race keeps trying the budget's settings while they lack the start rounds, in case the host grows quiet.
  expect(two.next_round).toEqual(['c2-1', 'c2-2']);
  // The budget the host could give is answered.
  expect(one.status).not.toBe('not measured');
  expect(one.recommended.label).toBe('uv_threadpool_size=2');
  expect(one.delivery).toMatchObject({ cpus: 1, got: 0.995 });
});

test("no knob, no advice; cheapest in production first: processes, then memory in steps, then today's setting", () => {
  expect(adviseCells([cell(1, 4, [1, 2]), cell(2, 4, [1, 2])], AXES, undefined)).toEqual([]);
  // Idle pool threads are no cost; worker threads are not processes; a cluster of 2 runs 3.
  expect(countProcesses({ uv_threadpool_size: 1 })).toBe(countProcesses({ uv_threadpool_size: 8 }));
  expect(countProcesses({ workers: 4 })).toBe(1);
  expect(countProcesses({ cluster: 2 })).toBe(3);
  const withMemory = (pool, rss, extra = {}) => ({
    cell: { ...cell(2, pool, [1000, 1001], { peak_rss_mb: rss }), memoryMb: 1024, ...extra },
    constraints: [],
  });
  const order = (entries) =>
    orderByCost(entries, { within: 0.05, isToday: (each) => each.values.uv_threadpool_size === 4 }).map((entry) => [
      entry.cell.values.uv_threadpool_size ?? `cluster ${entry.cell.values.cluster}`,
      entry.cost,
    ]);
  // 60, 70 and 75 MiB are one step of 5% of 1 GiB (51 MiB): today's pool 4 first, the rest in matrix order, alike in
  // cost; 160 MiB is two steps more.
  expect(order([withMemory(1, 60), withMemory(2, 70), withMemory(4, 75), withMemory(8, 160)])).toEqual([
    [4, 0],
    [1, 1],
    [2, 1],
    [8, 3],
  ]);
  const cluster = { cell: { ...cell(2, 4, [1000], { peak_rss_mb: 20 }), values: { cluster: 2 } }, constraints: [] };
  expect(order([cluster, withMemory(1, 300)])).toEqual([
    [1, 0],
    ['cluster 2', 1],
  ]);
});
