// A folder's cells, as every stage reads them: a metric's sample and median, which axes vary, cells grouped by the
// values of some axes, the order of an axis' values, and the words for a combination. A cell is
// { cell, values: { axis: value }, workload, runs }; a flat row (a pivot's) is read with `valuesOf: (row) => row`.
import { median } from '../stats/statistics.js';

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
