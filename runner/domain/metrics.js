// What each column means as a measurement: which metrics are a workload's primary ones (from its module),
// which way is better, and the words and units that label table headers and chart axes.
import { AXES } from './axes.js';
import { SEEN_COLUMNS } from './columns.js';
import { WORKLOADS, getWorkload, listWorkloadColumns } from './workloads.js';

/** @typedef {{ column: string, unit: string, better: 'lower'|'higher'|null, label: string }} Metric */

const WALL = { column: 'wall_ms', unit: 'ms', better: 'lower', label: 'wall time' };

// Other columns a pivot may show; `better` is null where neither way is better (what the process saw).
const OTHER_METRICS = [
  { column: 'speedup', unit: '×', better: 'higher', label: 'speedup' },
  { column: 'efficiency', unit: '', better: 'higher', label: 'parallel efficiency' },
  { column: 'throttled_ms', unit: 'ms', better: 'lower', label: 'CFS throttling' },
];

/** @returns {Metric[]} the first one is what speedup is computed on */
export function primaryMetrics(workload) {
  const declared = getWorkload(workload)?.primaryMetrics;
  if (!declared) return [WALL];
  const units = new Map(listWorkloadColumns(workload).map(({ name, unit }) => [name, unit]));
  return declared.map(({ column, better, label }) => ({ column, unit: units.get(column) ?? '', better, label }));
}

// Every primary metric of every workload, each once: wall_ms first, then in registry order.
function listPrimaryMetrics() {
  const all = new Map([[WALL.column, WALL]]);
  for (const workload of Object.keys(WORKLOADS))
    for (const metric of primaryMetrics(workload)) if (!all.has(metric.column)) all.set(metric.column, metric);
  return [...all.values()];
}

/** Every primary metric of these workloads, each once, in a fixed order (wall_ms first). */
export function metricsOf(workloads) {
  return listPrimaryMetrics().filter((metric) =>
    workloads.some((workload) => primaryMetrics(workload).some((m) => m.column === metric.column)),
  );
}

export function isPrimaryMetric(column) {
  return listPrimaryMetrics().some((metric) => metric.column === column);
}

/** What a pivot table may show: a primary metric, speedup/efficiency, or a median of what the process saw. */
export const PIVOT_METRICS = [
  ...new Set([...listPrimaryMetrics().map((metric) => metric.column), 'speedup', 'efficiency', ...SEEN_COLUMNS]),
];

export function findMetric(column) {
  return (
    [...listPrimaryMetrics(), ...OTHER_METRICS].find((metric) => metric.column === column) ?? {
      column,
      unit: guessUnit(column),
      better: null,
      label: column,
    }
  );
}

function guessUnit(column) {
  if (column.endsWith('_ms')) return 'ms';
  // *_mb columns are bytes / 2^20 (collect/parse-result.js, the idle workload): mebibytes.
  if (column.endsWith('_mb')) return 'MiB';
  if (column.endsWith('_per_sec')) return '/s';
  return '';
}

/** "cpus: CPU quota (CPUs)" — the axis name as in the CSV, what it means, its unit. */
export function axisLabel(axis) {
  return AXES[axis]?.label ?? `${axis} (environment variable)`;
}
