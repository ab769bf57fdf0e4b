// Claims from experiments.yml checked against a folder's cells: one row per combination of the axes the claim
// does not compare, Holm-corrected as one family, and one overall row (holds only if every combination holds).
import { primaryMetrics } from '../domain/metrics.js';
import { compareCells } from './compare-pair.js';
import { modelRatio } from '../model/predict.js';
import { classifyClaimRow, classifyOverall } from './capacity-class.js';
import { judgeFamily, INCONCLUSIVE } from './judge.js';
import { formatExpect, expectRegions } from './regions.js';
import { formatWhere, cellMedian, varyingAxes } from '../cells/cell.js';
import { pairClaimCells } from '../cells/claim-pairs.js';
import { describeMissing, resolveClaimMetric } from './claim-cells.js';
import { judgeFigures } from './judge-figures.js';

/**
 * @param {object[]} cells  [{ cell, values, workload, runs }] (cells/cell.js buildCell)
 * @param {string[]} axes   the folder's axis columns
 * @param {object[]} claims the experiment's normalized claims
 * @returns {object[]} verdict rows: per claim, its `claim-overall` row, then a `claim` row per combination
 */
export function judgeClaims(cells, axes, claims = []) {
  const varying = varyingAxes(cells, axes);
  return claims.flatMap((claim, index) => checkClaim(cells, axes, varying, claim, index + 1));
}

function checkClaim(cells, axes, varying, claim, number) {
  const [[axis, [valueA, valueB]]] = Object.entries(claim.compare);
  const pairs = pairClaimCells(cells, axes, claim);
  const base = {
    claim: number,
    says: claim.says,
    post: claim.post ?? null,
    control: claim.control === true,
    axis,
    a: valueA,
    b: valueB,
    expect: formatExpect(claim.expect),
  };
  const rows = pairs.map(({ a, b }) => {
    const metric = claim.metric ?? primaryMetrics(a.workload)[0].column;
    return {
      ...base,
      kind: 'claim',
      metric,
      workload: a.workload,
      where: formatWhere(
        a.values,
        varying.filter((other) => other !== axis),
      ),
      median_a: cellMedian(a, metric),
      median_b: cellMedian(b, metric),
      cells: [a.cell, b.cell],
      comparison: compareCells(a, b, metric),
      beside: compareBeside(a, b, claim.beside),
    };
  });
  // `expect: model`: each pair has the band of its own model ratio.
  const regions =
    claim.expect.model === undefined
      ? expectRegions(claim.expect)
      : pairs.map(({ a, b }, i) => expectRegions(claim.expect, { modelRatio: modelRatio(a, b, rows[i].metric) }));
  const judged = judgeFamily(
    rows.map((row) => row.comparison),
    regions,
  );
  rows.forEach((row, i) => Object.assign(row, judged[i], { family: rows.length }));
  rows.forEach((row, i) =>
    Object.assign(
      row,
      classifyClaimRow(row, {
        ...pairs[i],
        expect: claim.expect,
        conditions: claim.conditions,
        notComparable: claim.not_comparable,
      }),
    ),
  );
  return [overallRow(base, claim, rows, cells, axes), ...rows];
}

// The claim's other metrics of the same two cells: each ratio with its interval and the model's, judged by nothing.
function compareBeside(a, b, metrics = []) {
  return metrics.map((metric) => ({
    metric,
    median_a: cellMedian(a, metric),
    median_b: cellMedian(b, metric),
    comparison: compareCells(a, b, metric),
    model_ratio: modelRatio(a, b, metric),
  }));
}

// The claim's own verdict: over the combinations inside the post's conditions (a version or size the post's result
// does not stand for says nothing of it), over all of them when none is inside.
function overallRow(base, claim, rows, cells, axes) {
  const inside = rows.filter((row) => row.within_conditions !== false);
  const counted = inside.length > 0 ? inside : rows;
  const verdicts = counted.map((row) => row.verdict);
  let verdict = INCONCLUSIVE;
  if (verdicts.includes('refuted')) verdict = 'refuted';
  else if (verdicts.length > 0 && verdicts.every((v) => v === 'holds')) verdict = 'holds';
  const needed = counted.filter((row) => row.verdict === INCONCLUSIVE).map((row) => row.runs_needed);
  const overall = classifyOverall(rows);
  return {
    ...base,
    kind: 'claim-overall',
    metric: rows.length
      ? (claim.metric ?? [...new Set(rows.map((row) => row.metric))].join(' '))
      : resolveClaimMetric(cells, claim),
    // Why no pair was found, when the folder lacks a value the claim names (claims() turns it into exit 2).
    missing: rows.length ? null : describeMissing(cells, axes, claim),
    where: formatWhere(claim.where ?? {}, Object.keys(claim.where ?? {})),
    verdict,
    runs_needed: needed.length && needed.every((n) => n !== null) ? Math.max(...needed) : null,
    class: overall,
    class_note:
      (rows.find((row) => row.class === overall) ?? rows.find((row) => row.class !== 'holds') ?? rows[0])?.class_note ??
      '',
    family: rows.length,
    combinations: rows.map((row) => row.verdict),
    // The post's own numbers the claim quotes, each tested here (judge-figures.js).
    figures: judgeFigures(cells, axes, claim),
    // Combinations outside the post's conditions, in words ("node=24: node 24 (the post's: 20)"): not counted in the
    // verdict above unless no combination is inside them.
    outside: rows
      .filter((row) => row.within_conditions === false)
      .map((row) => `${row.where ? `${row.where}: ` : ''}${row.conditions_unmet.join('; ')}`),
  };
}
