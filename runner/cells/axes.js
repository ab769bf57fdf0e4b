// A cell's axes: which a set of cells has, in runs.csv's order, and which of them are the CPU budget (what a service
// gets, not what it sets: one answer of the advice per value, and the blocks of an `abba` order).
import { AXIS_COLUMNS } from '../domain/axes.js';

/** Axes that are the CPU budget by default (`recommend.per` names others). */
export const BUDGET_AXES = ['cpus', 'cpuset', 'node', 'engine'];

/**
 * The axes of these cells in runs.csv's order: built-in ones, then environment-variable axes.
 * @param {{ cells: { values: object }[] }} plan  a plan, or any { cells }
 */
export function listAxes({ cells }) {
  const keys = new Set(cells.flatMap((cell) => Object.keys(cell.values)));
  return [
    ...AXIS_COLUMNS.filter((axis) => keys.has(axis)),
    ...[...keys].filter((axis) => !AXIS_COLUMNS.includes(axis)).sort(),
  ];
}

/**
 * The budget axes of an experiment's `recommend:` (its `per`, else BUDGET_AXES); with `axes`, the default's only
 * those the cells have.
 */
export function listBudgetAxes(recommend, axes) {
  return recommend?.per ?? (axes ? BUDGET_AXES.filter((axis) => axes.includes(axis)) : BUDGET_AXES);
}
