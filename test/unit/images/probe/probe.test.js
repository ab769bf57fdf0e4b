import {
  diffCgroupCounters,
  parseCpuMax,
  parseCpuQuotaV1,
  parseCpuset,
  parseKeyedNumbers,
  readCgroupSnapshot,
} from '../../../../images/workload/probe/cgroup.js';
import { hasNamedPoolThreads, parseThreadsLine } from '../../../../images/workload/probe/os-threads.js';
import { computeUvThreadpoolSize } from '../../../../images/workload/probe/uv-pool.js';

const V1_FILES = {
  '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '50000\n',
  '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n',
  '/sys/fs/cgroup/cpu/cpu.stat': 'nr_periods 40\nnr_throttled 3\nthrottled_time 120500000\n',
  '/sys/fs/cgroup/cpuacct/cpuacct.usage': '810300000\n',
  '/sys/fs/cgroup/cpuacct/cpuacct.usage_user': '800100000\n',
  '/sys/fs/cgroup/cpuacct/cpuacct.usage_sys': '10200000\n',
  '/sys/fs/cgroup/cpuset/cpuset.effective_cpus': '0-1\n',
  '/sys/fs/cgroup/memory/memory.max_usage_in_bytes': '125829120\n',
};

const V2_FILES = {
  '/sys/fs/cgroup/cgroup.controllers': 'cpuset cpu io memory pids\n',
  '/sys/fs/cgroup/cpu.max': '150000 100000\n',
  '/sys/fs/cgroup/cpu.stat':
    'usage_usec 810300\nuser_usec 800100\nsystem_usec 10200\nnr_periods 40\nnr_throttled 3\nthrottled_usec 120500\nnr_bursts 0\nburst_usec 0\n',
  '/sys/fs/cgroup/cpuset.cpus.effective': '0,2-3\n',
  '/sys/fs/cgroup/memory.peak': '125829120\n',
};

const readFrom = (files) => (path) => files[path] ?? null;

describe('workload probe: cgroup files', () => {
  // Both fixtures hold the same counters, so both versions must give these, in CPUs and milliseconds.
  const COUNTERS = {
    nrPeriods: 40,
    nrThrottled: 3,
    throttledMs: 120.5,
    totalMs: 810.3,
    userMs: 800.1,
    systemMs: 10.2,
    memoryPeakBytes: 125829120,
  };

  test('cgroup v1 files become one snapshot, in CPUs and milliseconds', () => {
    expect(readCgroupSnapshot(readFrom(V1_FILES))).toEqual({ version: 1, cpuQuota: 0.5, cpuset: '0-1', ...COUNTERS });
  });

  test('cgroup v2 files become the same snapshot', () => {
    expect(readCgroupSnapshot(readFrom(V2_FILES))).toEqual({ version: 2, cpuQuota: 1.5, cpuset: '0,2-3', ...COUNTERS });
  });

  test('missing files are nulls, never an error; no cgroup at all has no version', () => {
    const noCpuController = readCgroupSnapshot(
      readFrom({
        '/sys/fs/cgroup/cgroup.controllers': 'memory pids\n',
        '/sys/fs/cgroup/cpu.stat': 'usage_usec 10\nuser_usec 7\nsystem_usec 3\n',
      }),
    );
    expect(noCpuController).toMatchObject({
      version: 2,
      cpuQuota: null,
      cpuset: null,
      nrPeriods: null,
      throttledMs: null,
      userMs: 0.007,
      memoryPeakBytes: null,
    });
    expect(readCgroupSnapshot(readFrom({}))).toEqual({
      version: null,
      cpuQuota: null,
      cpuset: null,
      nrPeriods: null,
      nrThrottled: null,
      throttledMs: null,
      totalMs: null,
      userMs: null,
      systemMs: null,
      memoryPeakBytes: null,
    });
  });

  test('an unlimited quota is null in both versions', () => {
    expect(parseCpuQuotaV1('-1\n', '100000\n')).toBeNull();
    expect(parseCpuMax('max 100000\n')).toBeNull();
    expect(parseCpuMax('50000 100000\n')).toBe(0.5);
    expect(parseCpuMax(null)).toBeNull();
  });

  test('cpuset is kept as the kernel prints it; an empty one is null', () => {
    expect(parseCpuset('0-3,8\n')).toBe('0-3,8');
    expect(parseCpuset('\n')).toBeNull();
  });

  test('keyed counters skip lines that are not "name number"', () => {
    expect(parseKeyedNumbers('nr_periods 4\n\ngarbage\nnr_throttled x\n')).toEqual({ nr_periods: 4 });
  });

  test('counter deltas are after minus before, null where either side is missing', () => {
    const before = { nrPeriods: 10, nrThrottled: 1, throttledMs: 5, totalMs: 110, userMs: 100, systemMs: null };
    const after = { nrPeriods: 50, nrThrottled: 4, throttledMs: 125.5, totalMs: 920.1, userMs: 900.1, systemMs: 3 };
    expect(diffCgroupCounters(before, after)).toEqual({
      nrPeriods: 40,
      nrThrottled: 3,
      throttledMs: 120.5,
      totalMs: 810.1,
      userMs: 800.1,
      systemMs: null,
    });
  });
});

describe('workload probe: threads and the libuv pool', () => {
  test('the Threads: line of /proc/<pid>/status', () => {
    expect(parseThreadsLine('Name:\tnode\nTgid:\t7\nThreads:\t11\nSigQ:\t0/1\n')).toBe(11);
    expect(parseThreadsLine('Name:\tnode\n')).toBeNull();
    expect(parseThreadsLine(null)).toBeNull();
  });

  test('pool threads are named from libuv 1.50 on', () => {
    expect(hasNamedPoolThreads('1.46.0')).toBe(false);
    expect(hasNamedPoolThreads('1.50.0')).toBe(true);
    expect(hasNamedPoolThreads('1.51.0')).toBe(true);
    expect(hasNamedPoolThreads('2.0.0')).toBe(true);
  });

  // Each case was checked against the libuv-worker threads Node 24 (libuv 1.51) really starts.
  test.each([
    [undefined, 4],
    ['1', 1],
    ['8', 8],
    [' 8', 8],
    ['8x', 8],
    ['+3', 3],
    ['0', 1],
    ['', 1],
    ['abc', 1],
    ['2000', 1024],
    ['-1', 1024],
    ['99999999999', 1024],
    ['4294967297', 1],
  ])('UV_THREADPOOL_SIZE=%j gives a pool of %i', (value, size) => {
    expect(computeUvThreadpoolSize(value)).toBe(size);
  });
});
