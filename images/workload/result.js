// Measurements → the one JSON object run.js prints. The field names are the runner's contract
// (runner/collect reads them): change them only together with it.

import { aggregateBatches, measureBatchWall } from './lib/batches.js';

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
 * @param {{ number: number, startedAt: number, records: object[] }[]} [run.batches]  a run with batches: every batch
 *   (warm-ups first, numbered as lib/batches.js says); `records` is then unused, and the counters, usages and host
 *   window cover the measured batches together
 * @param {{ count: number, warmup: number, aggregate: 'median'|'mean' }} [run.batchPlan]  the spec's `batches`
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
  batches,
  batchPlan,
}) {
  if (batches) {
    return buildBatchedResult({
      workload,
      t0,
      batches,
      batchPlan,
      metrics,
      resources: { seen, threadCounts, counters, memoryPeakBytes, usages, host },
    });
  }
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
 * A run of several batches: each batch's tasks timed from the batch's own start (tasks carry `batch`), wall_ms the
 * measured batches' median (or mean) wall, and the counters per measured batch — their sum over the batches divided
 * by how many there were — so that cpu_total_ms, throttled_ms and the host's window mean what they mean in a run
 * without batches (interference_pct, a share, is unchanged by the division).
 */
function buildBatchedResult({ workload, t0, batches, batchPlan, metrics, resources }) {
  const walls = new Map(batches.map((batch) => [batch.number, measureBatchWall(batch.records)]));
  const measured = batches.filter((batch) => batch.number > 0);
  const firstStart = Math.min(...batches[0].records.map((record) => record.start));
  const tasks = batches.flatMap((batch) =>
    [...batch.records]
      .sort((a, b) => a.task - b.task)
      .map((record) => ({
        task: record.task,
        start_ms: round(record.start - batch.startedAt),
        end_ms: round(record.end - batch.startedAt),
        process: record.process,
        thread: record.thread,
        batch: batch.number,
      })),
  );
  const count = measured.length;
  const { counters, usages, host } = resources;
  const perBatch = (value) => (value === null || value === undefined ? value : round(value / count));
  return {
    workload,
    wall_ms: round(
      aggregateBatches(
        measured.map((batch) => walls.get(batch.number)),
        batchPlan.aggregate,
      ),
    ),
    setup_ms: round(firstStart - t0),
    tasks,
    ...describeResources({
      ...resources,
      counters: Object.fromEntries(Object.entries(counters).map(([key, value]) => [key, perBatch(value)])),
      usages: usages.map((usage) => ({
        ...usage,
        cpuUserUs: usage.cpuUserUs / count,
        cpuSystemUs: usage.cpuSystemUs / count,
      })),
      host: host === null ? null : { ...host, cpuMs: host.cpuMs / count, windowMs: host.windowMs / count },
    }),
    metrics,
    batches: {
      count,
      warmup: batches.length - count,
      aggregate: batchPlan.aggregate,
      walls_ms: measured.map((batch) => round(walls.get(batch.number))),
      warmup_walls_ms: batches.filter((batch) => batch.number <= 0).map((batch) => round(walls.get(batch.number))),
    },
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
