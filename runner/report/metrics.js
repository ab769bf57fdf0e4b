// What the reports say about each column: which metrics are a workload's primary ones, which way is
// better, and the words and units that label table headers and chart axes.

/** @typedef {{ column: string, unit: string, better: 'lower'|'higher'|null, label: string }} Metric */

const WALL = { column: 'wall_ms', unit: 'ms', better: 'lower', label: 'wall time' };

export const PRIMARY_METRICS = {
  http: [
    { column: 'requests_per_sec', unit: 'req/s', better: 'higher', label: 'throughput' },
    { column: 'latency_p99_ms', unit: 'ms', better: 'lower', label: 'p99 latency' },
  ],
  idle: [{ column: 'rss_mb', unit: 'MiB', better: 'lower', label: 'resident memory' }],
};

/** Medians of what the process saw, carried into summary.csv because they explain the results. */
export const SEEN_COLUMNS = ['seen_available_parallelism', 'seen_cpu_quota', 'peak_threads', 'pool_threads', 'throttled_ms', 'cpu_user_ms'];

/** http latency percentiles, in the order the percentile chart draws them. */
export const LATENCY_COLUMNS = [
  ['p50', 'latency_p50_ms'], ['p90', 'latency_p90_ms'], ['p99', 'latency_p99_ms'], ['max', 'latency_max_ms'],
];

/** @returns {Metric[]} the first one is what speedup is computed on */
export function primaryMetrics(workload) {
  return PRIMARY_METRICS[workload] ?? [WALL];
}

/** Every primary metric of these workloads, each once, in a fixed order (wall_ms first). */
export function metricsOf(workloads) {
  const seen = new Map();
  for (const metric of [WALL, ...Object.values(PRIMARY_METRICS).flat()]) {
    if (workloads.some((workload) => primaryMetrics(workload).some((m) => m.column === metric.column))) seen.set(metric.column, metric);
  }
  return [...seen.values()];
}

export function isPrimaryMetric(column) {
  return [WALL, ...Object.values(PRIMARY_METRICS).flat()].some((metric) => metric.column === column);
}

// Other columns a pivot may show; `better` is null where neither way is better (what the process saw).
const OTHER_METRICS = [
  { column: 'speedup', unit: '×', better: 'higher', label: 'speedup' },
  { column: 'efficiency', unit: '', better: 'higher', label: 'parallel efficiency' },
  { column: 'throttled_ms', unit: 'ms', better: 'lower', label: 'CFS throttling' },
];

export function findMetric(column) {
  return [WALL, ...Object.values(PRIMARY_METRICS).flat(), ...OTHER_METRICS].find((metric) => metric.column === column)
    ?? { column, unit: guessUnit(column), better: null, label: column };
}

function guessUnit(column) {
  if (column.endsWith('_ms')) return 'ms';
  // *_mb columns are bytes / 2^20 (collect/parse-result.js): mebibytes.
  if (column.endsWith('_mb')) return 'MiB';
  if (column.endsWith('_per_sec')) return '/s';
  return '';
}

const AXIS_LABELS = {
  workload: 'workload',
  cpus: 'cpus: CPU quota (CPUs)',
  cpuset: 'cpuset: CPUs pinned (ids)',
  uv_threadpool_size: 'uv_threadpool_size: libuv pool (threads)',
  workers: 'workers: worker_threads (threads)',
  cluster: 'cluster: processes',
  node: 'node: Node.js major version',
};

/** "cpus: CPU quota (CPUs)" — the axis name as in the CSV, what it means, its unit. */
export function axisLabel(axis) {
  return AXIS_LABELS[axis] ?? `${axis} (environment variable)`;
}

/** "wall_ms median (ms)" */
export function metricLabel(column, stat = 'median') {
  const { unit } = findMetric(column);
  return `${column} ${stat}${unit ? ` (${unit})` : ''}`;
}
