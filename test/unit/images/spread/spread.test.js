import { buildResult } from '../../../../images/workload/result.js';
import { dealRoundRobin, listTaskIndexes } from '../../../../images/workload/lib/deal.js';

describe('workload: dealing tasks', () => {
  test('task i goes to hand i mod n, and hands may be empty', () => {
    expect(dealRoundRobin(listTaskIndexes(5), 2)).toEqual([
      [0, 2, 4],
      [1, 3],
    ]);
    expect(dealRoundRobin([1, 3], 3)).toEqual([[1], [3], []]);
    expect(dealRoundRobin(listTaskIndexes(3), 1)).toEqual([[0, 1, 2]]);
  });
});

describe('workload: the result object', () => {
  const t0 = 1_000_000;
  const run = {
    workload: 'pbkdf2',
    t0,
    records: [
      { task: 1, process: 2, thread: 0, start: t0 + 50.0004, end: t0 + 420.1 },
      { task: 0, process: 1, thread: 0, start: t0 + 50.4, end: t0 + 300 },
    ],
    seen: { uv_threadpool_size: 4 },
    threadCounts: { peakThreads: 25, poolThreads: 8 },
    counters: { nrPeriods: 40, nrThrottled: 3, throttledMs: 120.5, userMs: null, systemMs: null },
    memoryPeakBytes: 3 * 1024 * 1024,
    usages: [
      { cpuUserUs: 1000, cpuSystemUs: 0, maxRssKiB: 40 * 1024 },
      { cpuUserUs: 200000, cpuSystemUs: 5000, maxRssKiB: 50 * 1024 },
      { cpuUserUs: 300500, cpuSystemUs: 5000, maxRssKiB: 50 * 1024 },
    ],
  };

  test('times are relative to t0 with 3 decimals, tasks sorted by index, setup and wall from the tasks', () => {
    const result = buildResult(run);
    expect(result.tasks).toEqual([
      { task: 0, start_ms: 50.4, end_ms: 300, process: 1, thread: 0 },
      { task: 1, start_ms: 50, end_ms: 420.1, process: 2, thread: 0 },
    ]);
    expect(result.setup_ms).toBe(50);
    expect(result.wall_ms).toBe(370.1);
  });

  test("without cgroup CPU counters, CPU time is the sum of every process's own", () => {
    const result = buildResult(run);
    expect(result).toMatchObject({
      peak_threads: 25,
      pool_threads: 8,
      throttled_periods: 3,
      nr_periods: 40,
      throttled_ms: 120.5,
      cpu_user_ms: 501.5,
      cpu_system_ms: 10,
      peak_rss_mb: 140,
      cgroup_memory_peak_mb: 3,
      metrics: {},
    });
  });

  test('cgroup counters win over process usage when present', () => {
    const result = buildResult({
      ...run,
      counters: { ...run.counters, userMs: 800.1234, systemMs: 0 },
      memoryPeakBytes: null,
    });
    expect(result).toMatchObject({ cpu_user_ms: 800.123, cpu_system_ms: 0, cgroup_memory_peak_mb: null });
  });

  test('keys come in the order of the contract', () => {
    expect(Object.keys(buildResult(run))).toEqual([
      'workload',
      'wall_ms',
      'setup_ms',
      'tasks',
      'seen',
      'peak_threads',
      'pool_threads',
      'throttled_periods',
      'nr_periods',
      'throttled_ms',
      'cpu_user_ms',
      'cpu_system_ms',
      'cpu_total_ms',
      'peak_rss_mb',
      'cgroup_memory_peak_mb',
      'host',
      'metrics',
    ]);
  });
});
