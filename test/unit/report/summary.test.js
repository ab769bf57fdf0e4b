import { fileURLToPath } from 'node:url';
import { readResults } from '../../../runner/results/read-results.js';
import { cpuCapacity, summarizeCells } from '../../../runner/report/summary.js';

const fixture = (name) => fileURLToPath(new URL(`../../fixtures/results/${name}`, import.meta.url));

describe('summary of the real default run (pool-vs-cores: 16 cells × 3 repetitions)', () => {
  const summary = summarizeCells(readResults(fixture('pool-vs-cores')));
  const row = (workload, cpus, pool) =>
    summary.rows.find((r) => r.workload === workload && r.cpus === cpus && r.uv_threadpool_size === pool);

  test('one row per cell in matrix order, with the axis columns, n and the wall_ms statistics', () => {
    expect(summary.rows).toHaveLength(16);
    expect(summary.columns.slice(0, 12)).toEqual([
      'experiment',
      'cell',
      'workload',
      'cpus',
      'cpuset',
      'uv_threadpool_size',
      'workers',
      'cluster',
      'node',
      'n',
      'failed',
      'warmups',
    ]);
    expect(summary.columns).toEqual(
      expect.arrayContaining([
        'wall_ms_median',
        'wall_ms_ci95_low',
        'wall_ms_ci95_high',
        'wall_ms_outliers',
        'speedup',
        'efficiency',
        'cpu_capacity',
        'throttled_ms_median',
      ]),
    );
    expect(summary.columns).not.toContain('requests_per_sec_median');
    // runs.csv: 5724.286, 5938.974, 5682.601 → mean 5781.954, median 5724.286
    expect(row('pbkdf2', 1, 1)).toMatchObject({
      cell: '89829806d1',
      n: 3,
      failed: 0,
      wall_ms_median: 5724.29,
      wall_ms_mean: 5781.95,
      wall_ms_min: 5682.6,
      wall_ms_max: 5938.97,
    });
  });

  test('the baseline is the cell with the fewest resources in each workload; speedup and efficiency follow', () => {
    const base = row('pbkdf2', 1, 1);
    const twoCpus = row('pbkdf2', 2, 4);
    expect(base).toMatchObject({ baseline: base.cell, speedup: 1, efficiency: null, cpu_capacity: 1 });
    // Equal capacity: efficiency would only repeat the speedup.
    expect(row('pbkdf2', 1, 4)).toMatchObject({ cpu_capacity: 1, efficiency: null });
    expect(row('argon2', 2, 8).baseline).toBe(row('argon2', 1, 1).cell);
    expect(twoCpus.cpu_capacity).toBe(2);
    expect(twoCpus.speedup).toBeCloseTo(base.wall_ms_median / twoCpus.wall_ms_median, 4);
    expect(twoCpus.efficiency).toBeCloseTo(twoCpus.speedup / 2, 4);
  });

  test('carries the medians of what the process saw', () => {
    expect(row('pbkdf2', 1, 8)).toMatchObject({
      seen_available_parallelism_median: 2,
      seen_cpu_quota_median: 1,
      pool_threads_median: 8,
      peak_threads_median: 15,
    });
  });
});

describe('summary of a folder with http cells, warm-ups, a failed run and an env axis (synthetic)', () => {
  const results = readResults(fixture('http-mixed'));
  const summary = summarizeCells(results, { baseline: results.info.config.report.baseline });
  const http = summary.rows.filter((r) => r.workload === 'http');

  test('warm-ups and runs that are not ok are left out of n and counted apart', () => {
    expect(http.map((r) => [r.cpus, r.workers, r.n, r.failed, r.warmups])).toEqual([
      [1, 0, 5, 0, 1],
      [1, 2, 5, 0, 1],
      [2, 0, 5, 0, 1],
      [2, 2, 4, 1, 1],
    ]);
  });

  test('http cells get requests_per_sec and latency_p99_ms statistics, CPU cells wall_ms', () => {
    expect(http[0].requests_per_sec_median).toBeGreaterThan(0);
    expect(http[0].latency_p99_ms_ci95_low).toBeLessThan(http[0].latency_p99_ms_ci95_high);
    expect(http[0].wall_ms_median).toBeUndefined();
    expect(summary.rows.find((r) => r.workload === 'pbkdf2').requests_per_sec_median).toBeUndefined();
  });

  test('speedup of a rate is cell / baseline; the configured baseline is used', () => {
    const [base, , , best] = http;
    expect(base.baseline).toBe(base.cell);
    expect(best.speedup).toBeCloseTo(best.requests_per_sec_median / base.requests_per_sec_median, 4);
  });

  test('env axis values come back as written, not as the spreadsheet-safe text', () => {
    expect(results.envAxes).toEqual(['NODE_OPTIONS']);
    expect(http[0].NODE_OPTIONS).toBe('--max-semi-space-size=64');
  });

  test('outliers are flagged in cells with 5 runs', () => {
    expect(summary.outliers.map((o) => [o.metric, o.repetition])).toContainEqual(['wall_ms', 4]);
    expect(summary.rows.find((r) => r.workload === 'pbkdf2' && r.cpus === 1 && r.workers === 0).wall_ms_outliers).toBe(
      1,
    );
  });

  test('a baseline that matches no cell leaves speedup empty instead of guessing', () => {
    const none = summarizeCells(results, { baseline: { cpus: 3 } });
    expect(none.rows.every((r) => r.speedup === null && r.baseline === undefined)).toBe(true);
  });
});

describe('cpuCapacity', () => {
  test.each([
    [{ cpus: 1.5 }, 8, 1.5],
    [{ cpuset: '0-1,3' }, 8, 3],
    [{ cpus: 2, cpuset: '0' }, 8, 1],
    [{ cpus: 0.5, cpuset: '0-3' }, 8, 0.5],
    [{}, 8, 8],
    [{}, null, null],
  ])('%j on %s host CPUs → %s', (values, host, expected) => {
    expect(cpuCapacity(values, host)).toBe(expected);
  });
});
