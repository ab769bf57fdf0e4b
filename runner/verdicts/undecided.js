// For adaptive repetitions that aim at claims: the cells behind every claim combination still inconclusive,
// judged on the rows written so far (typed: fresh from toRows, or read back by results/read-results.js).
import { AXIS_COLUMNS } from '../domain/axes.js';
import { isMeasured } from '../domain/interference.js';
import { judgeClaims } from './judge-claims.js';

/** @returns {Set<string>} cell ids */
export function findUndecidedClaimCells(plan, rows) {
  const claims = plan.experiment.claims ?? [];
  if (claims.length === 0) return new Set();
  const measured = rows.filter((row) => isMeasured(row, { keepDisturbed: plan.keepDisturbed }));
  const cells = plan.cells.map(({ cell, values, workload }) => ({
    cell,
    values,
    workload,
    runs: measured.filter((row) => row.cell === cell),
  }));
  const keys = new Set(cells.flatMap((cell) => Object.keys(cell.values)));
  // runs.csv order: built-in axes, then environment-variable axes.
  const axes = [
    ...AXIS_COLUMNS.filter((axis) => keys.has(axis)),
    ...[...keys].filter((axis) => !AXIS_COLUMNS.includes(axis)).sort(),
  ];
  return new Set(
    judgeClaims(cells, axes, claims)
      .filter((row) => row.kind === 'claim' && row.verdict === 'inconclusive')
      .flatMap((row) => row.cells),
  );
}
