// For adaptive repetitions that aim at claims: the cells behind every claim combination still inconclusive,
// judged on the rows written so far (typed: fresh from toRows, or read back by results/read-results.js).
import { listAxes } from '../cells/axes.js';
import { buildCell } from '../cells/cell.js';
import { judgeClaims } from './judge-claims.js';

/** @returns {Set<string>} cell ids */
export function findUndecidedClaimCells(plan, rows) {
  const claims = plan.experiment.claims ?? [];
  if (claims.length === 0) return new Set();
  const cells = plan.cells.map((cell) =>
    buildCell(cell, rows, { keepDisturbed: plan.keepDisturbed, disturbedAbove: plan.experiment?.disturbed_above }),
  );
  return new Set(
    judgeClaims(cells, listAxes(plan), claims)
      .filter((row) => row.kind === 'claim' && row.verdict === 'inconclusive')
      .flatMap((row) => row.cells),
  );
}
