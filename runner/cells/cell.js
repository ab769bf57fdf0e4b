// What a cell is, once, for the rounds, the verdicts and the report: one combination of axis values (the matrix's
// product, an `include` entry), with its id (cell-id.js) and the runs measured in it. Its shape is
// { cell, values: { axis: value }, workload, runs, disturbedRuns, statuses } (buildCell); the summary (report/
// summary.js) adds its statistics. Here too what every stage reads of cells: a metric's sample and median, which axes
// vary, cells grouped by the values of some axes, the order of an axis' values, and the words for a combination. A
// flat row (a pivot's) is read with `valuesOf: (row) => row`.
import { sortCellRuns } from '../domain/delivery.js';
import { median } from '../stats/statistics.js';

/**
 * A cell with its rows, as every answer counts them (domain/delivery.js sortCellRuns, the one rule): the runs a
 * statistic counts, the ok runs the host disturbed and the statistics leave out, whether the host gave the cell its
 * CPUs (`delivery`: an answer counts no run of a cell it did not), how many rows ended in each status (a setting out
 * of memory is out: verdicts/failed-settings.js), and the memory limit it ran under (`memoryMb`, what the advice
 * weighs measured memory against).
 * @param {{ cell: string, values: object, workload?: string, limits?: { memoryBytes?: number }, params?: object }} cell
 *   a plan's cell, or run.json's (whose values name the workload; params.loader.cpuset: where an http cell's load
 *   generator was asked to run)
 * @param {object[]} rows  typed rows: every row so far, or the cell's own
 * @param {{ keepDisturbed?: boolean, disturbedAbove?: number|null }} [sorting]  as sortCellRuns takes it
 */
export function buildCell({ cell, values, workload, limits, params }, rows, sorting = {}) {
  const own = rows.filter((row) => row.cell === cell);
  return {
    cell,
    values,
    workload: workload ?? values.workload ?? own[0]?.workload,
    memoryMb: toMebibytes(limits?.memoryBytes),
    // Where the file asked for an http cell's load generator: whether its sharing the server's CPUs was asked.
    ...sortCellRuns(own, { ...sorting, loaderCpuset: params?.loader?.cpuset }),
    statuses: countStatuses(own),
  };
}

/** A memory limit in bytes → MiB, the unit of peak_rss_mb; null when the folder does not say. */
export function toMebibytes(bytes) {
  return Number.isFinite(bytes) && bytes > 0 ? bytes / 2 ** 20 : null;
}

/** { ok: 3, oom: 1 }: the statuses of rows that are not warm-ups. */
export function countStatuses(rows) {
  const counts = {};
  for (const row of rows) if (row.warmup !== true && row.status) counts[row.status] = (counts[row.status] ?? 0) + 1;
  return counts;
}

/** The metric's finite values over the cell's measured runs. */
export function sampleOf(cell, column) {
  return cell.runs.map((run) => run[column]).filter((value) => typeof value === 'number' && Number.isFinite(value));
}

/**
 * Each of sampleOf's values' round, in the same order: what a paired comparison pairs by (roundOf).
 */
export function roundsOf(cell, column) {
  return cell.runs.filter((run) => typeof run[column] === 'number' && Number.isFinite(run[column])).map(roundOf);
}

/**
 * The round a run belongs to, as comparisons by round read it: its `repetition`, the round it ran in. A re-run of a
 * disturbed run (`rerun_of`) ran later, beside the other re-runs of its round, not beside the runs of the round it
 * replaces: it is a member of its own round, never of that one.
 */
export function roundOf(run) {
  return run.repetition;
}

export function cellMedian(cell, column) {
  return median(sampleOf(cell, column));
}

/** Same value, whether it came from YAML (2), runs.csv (2) or a command line ("2"); unset matches unset only. */
export function sameValue(x, y) {
  return (x ?? null) === null || (y ?? null) === null ? (x ?? null) === (y ?? null) : String(x) === String(y);
}

export function matchesWhere(values, where = {}) {
  return Object.entries(where).every(([axis, wanted]) => sameValue(values[axis], wanted));
}

const cellValues = (cell) => cell.values;

/**
 * Axes with more than one value among these cells, in the folder's axis order. `orAllSet`: when none varies (one
 * cell), the axes any cell sets instead, so a table of one cell still says what it is.
 */
export function varyingAxes(cells, axes, { valuesOf = cellValues, orAllSet = false } = {}) {
  const varying = axes.filter((axis) => new Set(cells.map((cell) => String(valuesOf(cell)[axis] ?? ''))).size > 1);
  if (varying.length > 0 || !orAllSet) return varying;
  return axes.filter((axis) =>
    cells.some((cell) => valuesOf(cell)[axis] !== undefined && valuesOf(cell)[axis] !== null),
  );
}

/** Cells grouped by their values on `heldAxes`; groups in the order of their first cell. */
export function groupByAxes(cells, heldAxes, { valuesOf = cellValues } = {}) {
  const groups = new Map();
  for (const cell of cells) {
    const key = JSON.stringify(
      heldAxes.map((axis) =>
        valuesOf(cell)[axis] === undefined || valuesOf(cell)[axis] === null ? null : String(valuesOf(cell)[axis]),
      ),
    );
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(cell);
  }
  return [...groups.values()];
}

export function isSet(value) {
  return value !== undefined && value !== null && value !== '';
}

/**
 * The distinct values of an axis in the one order every table, chart and step uses: unset first, then numbers
 * ascending, then text in order of first appearance. Pass values in cell order (run.json's, the matrix order:
 * `workload: [pbkdf2, argon2]` stays so), never in the shuffled order of runs.csv.
 */
export function orderValues(values) {
  const distinct = [];
  for (const value of values) if (!distinct.some((seen) => sameValue(seen, value))) distinct.push(value);
  const rank = (value) => (!isSet(value) ? 0 : typeof value === 'number' ? 1 : 2);
  // Array.prototype.sort is stable: text keeps its order of appearance.
  return distinct.sort((a, b) => rank(a) - rank(b) || (rank(a) === 1 ? a - b : 0));
}

/** Cells sorted by their values on `axes`, the first axis first, each in orderValues' order. */
export function sortByAxes(cells, axes, { valuesOf = cellValues } = {}) {
  const orders = axes.map((axis) => orderValues(cells.map((cell) => valuesOf(cell)[axis])));
  const position = (cell, index) => orders[index].findIndex((value) => sameValue(value, valuesOf(cell)[axes[index]]));
  return [...cells].sort((a, b) => {
    for (let index = 0; index < axes.length; index++) {
      const order = position(a, index) - position(b, index);
      if (order !== 0) return order;
    }
    return 0;
  });
}

/** "cpus=2 workload=pbkdf2": the held values that tell combinations apart. */
export function formatWhere(values, axes) {
  return axes
    .filter((axis) => values[axis] !== undefined && values[axis] !== null)
    .map((axis) => `${axis}=${values[axis]}`)
    .join(' ');
}
