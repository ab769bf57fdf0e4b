// Measurements → the one JSON object run.js prints. The field names are the runner's contract
// (runner/collect reads them): change them only together with it.

const MIB = 1024 * 1024;

/**
 * @param {object} run
 * @param {string} run.workload
 * @param {number} run.t0  absolute clock.js time taken just before anything was spawned
 * @param {import('./spread/run-thread-tasks.js').TaskRecord[]} run.records  absolute times
 * @param {object} run.seen  probe/seen.js
 * @param {{ peakThreads: number|null, poolThreads: number|null }} run.threadCounts
 * @param {ReturnType<import('./probe/cgroup.js').diffCgroupCounters>} run.counters  cgroup deltas over the run
 * @param {number|null} run.memoryPeakBytes  cgroup memory peak
 * @param {{ cpuUserUs: number, cpuSystemUs: number, maxRssKiB: number }[]} run.usages  one per process
 * @param {ReturnType<import('./probe/host-cpu.js').diffHostCpu>} [run.host]  the whole host's CPU time over the
 *   same window as `counters`
 * @param {Record<string, number|null>} [run.metrics]  the workload's own measurements (its measure())
 */
export function buildResult({
  workload,
  t0,
  records,
  seen,
  threadCounts,
  counters,
  memoryPeakBytes,
  usages,
  host = null,
  metrics = {},
}) {
  const firstStart = records.reduce((min, record) => Math.min(min, record.start), Infinity);
  const lastEnd = records.reduce((max, record) => Math.max(max, record.end), -Infinity);
  const tasks = [...records]
    .sort((a, b) => a.task - b.task)
    .map((record) => ({
      task: record.task,
      start_ms: round(record.start - t0),
      end_ms: round(record.end - t0),
      process: record.process,
      thread: record.thread,
    }));
  return {
    workload,
    wall_ms: round(lastEnd - firstStart),
    setup_ms: round(firstStart - t0),
    tasks,
    ...describeResources({ seen, threadCounts, counters, memoryPeakBytes, usages, host }),
    metrics,
  };
}

/**
 * The fields every workload's result has besides its timings: what the process saw and what the
 * container used over the measured period. The http server (http/server-result.js) shares them.
 */
export function describeResources({ seen, threadCounts, counters, memoryPeakBytes, usages, host = null }) {
  return {
    seen,
    peak_threads: threadCounts.peakThreads,
    pool_threads: threadCounts.poolThreads,
    throttled_periods: counters.nrThrottled,
    nr_periods: counters.nrPeriods,
    throttled_ms: roundOrNull(counters.throttledMs),
    // Without cgroup counters, each process's own getrusage time (threads included) is the next best.
    cpu_user_ms: round(counters.userMs ?? sum(usages, 'cpuUserUs') / 1000),
    cpu_system_ms: round(counters.systemMs ?? sum(usages, 'cpuSystemUs') / 1000),
    cpu_total_ms: round(counters.totalMs ?? sum(usages, 'cpuUserUs') / 1000 + sum(usages, 'cpuSystemUs') / 1000),
    // maxRSS is in KiB; sizes here are MiB (2^20 bytes). The sum counts pages that processes share
    // (the node binary) once per process, so with cluster it can exceed the cgroup's peak.
    peak_rss_mb: round(sum(usages, 'maxRssKiB') / 1024),
    cgroup_memory_peak_mb: memoryPeakBytes === null ? null : round(memoryPeakBytes / MIB),
    // The whole host over the window of the cgroup counters: the runner takes the run's own time off it.
    host: host === null ? null : { cpu_ms: round(host.cpuMs), window_ms: round(host.windowMs), cpus: host.cpus },
  };
}

function sum(items, key) {
  return items.reduce((total, item) => total + item[key], 0);
}

export function round(value) {
  return Math.round(value * 1000) / 1000;
}

function roundOrNull(value) {
  return value === null ? null : round(value);
}
