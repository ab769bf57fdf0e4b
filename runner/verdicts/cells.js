// What claims and steps need from a folder's cells: a metric's sample, pairs of cells that differ in one axis
// only, and the order of an axis' values.
import { median } from 'simple-statistics';

/** The metric's finite values over the cell's measured runs. */
export function sampleOf(cell, column) {
  return cell.runs.map((run) => run[column]).filter((value) => typeof value === 'number' && Number.isFinite(value));
}

export function medianOf(cell, column) {
  const sample = sampleOf(cell, column);
  return sample.length ? median(sample) : null;
}

/** Same value, whether it came from YAML (2), runs.csv (2) or a command line ("2"); unset matches unset only. */
export function sameValue(x, y) {
  return (x ?? null) === null || (y ?? null) === null ? (x ?? null) === (y ?? null) : String(x) === String(y);
}

export function matchesWhere(values, where = {}) {
  return Object.entries(where).every(([axis, wanted]) => sameValue(values[axis], wanted));
}

/** Axes with more than one value among these cells, in the folder's axis order. */
export function varyingAxes(cells, axes) {
  return axes.filter((axis) => new Set(cells.map((cell) => String(cell.values[axis] ?? ''))).size > 1);
}

/** Cells grouped by their values on `heldAxes`; groups in the order of their first cell. */
export function groupByAxes(cells, heldAxes) {
  const groups = new Map();
  for (const cell of cells) {
    const key = JSON.stringify(heldAxes.map((axis) => (cell.values[axis] === undefined ? null : String(cell.values[axis]))));
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(cell);
  }
  return [...groups.values()];
}

/** Numbers ascending; anything else in order of first appearance (the matrix order). */
export function orderValues(values) {
  const distinct = [];
  for (const value of values) if (value !== undefined && value !== null && !distinct.some((seen) => sameValue(seen, value))) distinct.push(value);
  return distinct.every((value) => typeof value === 'number') ? distinct.sort((x, y) => x - y) : distinct;
}

/** "cpus=2 workload=pbkdf2": the held values that tell combinations apart. */
export function formatWhere(values, axes) {
  return axes.filter((axis) => values[axis] !== undefined && values[axis] !== null).map((axis) => `${axis}=${values[axis]}`).join(' ');
}
