// Batches: the workload's measured body (all of its tasks, started together as in a run without batches) run
// several times in one container, after warm-up batches that are timed but not counted — pyperf's "values per
// process" (the runner's `batches:` key, docs/experiments.md). Pure arithmetic shared by the image (run.js,
// result.js) and the runner (the benchmark re-reads the batch walls from tasks.csv).

export const BATCH_AGGREGATES = ['median', 'mean'];

/**
 * The numbers batches go by in tasks.csv's `batch` column: warm-up batches 1 − warmup … 0 (0 the last before the
 * measured ones), then the measured batches 1 … count.
 * @param {{ count: number, warmup: number }} batches
 */
export function listBatchNumbers({ count, warmup }) {
  return [
    ...Array.from({ length: warmup }, (_, index) => index + 1 - warmup),
    ...Array.from({ length: count }, (_, index) => index + 1),
  ];
}

/** A batch's wall time: its first task's start to its last task's end (as a run's wall_ms without batches). */
export function measureBatchWall(tasks) {
  const starts = tasks.map((task) => task.start);
  const ends = tasks.map((task) => task.end);
  return Math.max(...ends) - Math.min(...starts);
}

/**
 * The run's value from its measured batches' values: their median (the default: one batch a neighbour slowed moves
 * it least) or their mean.
 * @param {number[]} values
 * @param {'median'|'mean'} aggregate
 */
export function aggregateBatches(values, aggregate = 'median') {
  if (values.length === 0) return null;
  if (aggregate === 'mean') return values.reduce((total, value) => total + value, 0) / values.length;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
