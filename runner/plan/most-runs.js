// The most runs adaptive rounds (rounds/adaptive.js) or a race (rounds/race.js) may add, known before any run: each
// cell that can get another round may go up to `adaptive.max_repetitions`. Which cells can: every one with
// `target_ci_pct`; with `claims: true` the cells a claim compares; with `search: race` every cell of a budget that has
// a knob to set (the advice's settings). The rounds stop earlier when the questions settle; never later.
import { listAxes, listBudgetAxes } from '../cells/axes.js';
import { varyingAxes } from '../cells/cell.js';
import { pairClaimCells } from '../cells/claim-pairs.js';

/**
 * @param {{ experiment: object, cells: object[] }} plan
 * @returns {{ perCell: Map<string, number>, total: number, why: string|null }}  why: which rule gave the cells, in
 *   words
 */
export function countMostExtraRuns(plan) {
  const { adaptive, repetitions } = plan.experiment;
  const extra = adaptive ? Math.max(0, adaptive.max_repetitions - repetitions) : 0;
  const perCell = new Map(plan.cells.map(({ cell }) => [cell, 0]));
  if (extra === 0) return { perCell, total: 0, why: null };
  const { cells, why } = pickAdaptiveCells(plan);
  for (const cell of cells) perCell.set(cell, extra);
  return {
    perCell,
    total: extra * cells.size,
    why: cells.size > 0 ? `${extra} more for each of ${cells.size} cell${cells.size === 1 ? '' : 's'}: ${why}` : null,
  };
}

function pickAdaptiveCells(plan) {
  const { adaptive, search, slo } = plan.experiment;
  if (slo)
    return {
      cells: new Set(plan.cells.map(({ cell }) => cell)),
      why: `the capacity search, each cell at its next rate until its bracket of p99 ≤ ${slo.p99_ms} ms is shown`,
    };
  if (adaptive.target_ci_pct !== undefined)
    return {
      cells: new Set(plan.cells.map(({ cell }) => cell)),
      why: `every cell, until its 95% CI is within ±${adaptive.target_ci_pct}%`,
    };
  const reasons = [];
  const cells = new Set();
  if (adaptive.claims) {
    const claimed = listClaimCells(plan);
    claimed.forEach((cell) => cells.add(cell));
    if (claimed.size > 0) reasons.push('the cells of a claim, until it is decided');
  }
  if (search === 'race') {
    const raced = listRacedCells(plan);
    raced.forEach((cell) => cells.add(cell));
    if (raced.size > 0) reasons.push('the settings of each budget, until its advice is settled or they are dropped');
  }
  return { cells, why: reasons.join('; ') };
}

/** The cell ids a claim compares: A and B of each combination the claim covers. */
export function listClaimCells(plan) {
  const axes = listAxes(plan);
  const ids = new Set();
  for (const claim of plan.experiment.claims ?? []) {
    for (const { a, b } of pairClaimCells(plan.cells, axes, claim)) {
      ids.add(a.cell);
      ids.add(b.cell);
    }
  }
  return ids;
}

// Advice has settings to choose between only where an axis other than the budget's and the workload varies.
function listRacedCells(plan) {
  const axes = listAxes(plan);
  const budget = listBudgetAxes(plan.experiment.recommend);
  const knobs = varyingAxes(plan.cells, axes).filter((axis) => axis !== 'workload' && !budget.includes(axis));
  return new Set(knobs.length > 0 ? plan.cells.map(({ cell }) => cell) : []);
}
