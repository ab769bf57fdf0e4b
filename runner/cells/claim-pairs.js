// A claim's pairs of cells: A and B differ only in the claim's `compare` axis, every other axis held equal, among the
// cells its `where` selects. The verdicts judge these pairs (verdicts/judge-claims.js); the plan counts and runs them
// before anything ran (plan/most-runs.js, plan/describe-questions.js).
import { groupByAxes, matchesWhere, sameValue } from './cell.js';

/**
 * @param {{ values: object }[]} cells
 * @param {string[]} axes  the cells' axis columns
 * @param {{ compare: Record<string, [unknown, unknown]>, where?: object }} claim  a normalized claim
 * @returns {{ a: object, b: object }[]}
 */
export function pairClaimCells(cells, axes, claim) {
  const [[axis, [valueA, valueB]]] = Object.entries(claim.compare);
  const held = axes.filter((other) => other !== axis);
  return groupByAxes(
    cells.filter((cell) => matchesWhere(cell.values, claim.where)),
    held,
  ).flatMap((group) => {
    const a = group.find((cell) => sameValue(cell.values[axis], valueA));
    const b = group.find((cell) => sameValue(cell.values[axis], valueB));
    return a && b ? [{ a, b }] : [];
  });
}
