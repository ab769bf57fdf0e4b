// Verdicts without claims: for every axis with two or more values, each step between neighbouring values with
// the other axes held equal, on each primary metric. One step of one axis on one metric, across the combinations
// of the other axes, is one family for Holm's correction.
import { findMetric, primaryMetrics } from '../domain/metrics.js';
import { compareCells } from './compare-pair.js';
import { judgeFamily } from './judge.js';
import { STEP_EQUIVALENCE, stepRegions } from './regions.js';
import { formatWhere, groupByAxes, isSet, cellMedian, orderValues, varyingAxes } from '../cells/cell.js';

/** @returns {object[]} `step` verdict rows, by axis, then step, then combination */
export function judgeSteps(cells, axes) {
  const varying = varyingAxes(cells, axes);
  // Different workloads are different programs: their ratio answers nothing.
  const stepAxes = varying.filter((axis) => axis !== 'workload');
  const families = new Map();
  for (const axis of stepAxes) {
    const order = orderValues(cells.map((cell) => cell.values[axis])).filter(isSet);
    const rank = (cell) => order.findIndex((value) => String(value) === String(cell.values[axis]));
    for (const group of groupByAxes(
      cells,
      axes.filter((other) => other !== axis),
    )) {
      const line = group.filter((cell) => rank(cell) >= 0).sort((x, y) => rank(x) - rank(y));
      for (let i = 1; i < line.length; i++) {
        const [a, b] = [line[i - 1], line[i]];
        for (const { column } of primaryMetrics(a.workload)) {
          const key = JSON.stringify([axis, String(a.values[axis]), String(b.values[axis]), column]);
          if (!families.has(key)) families.set(key, []);
          families.get(key).push({
            kind: 'step',
            claim: null,
            says: null,
            metric: column,
            workload: a.workload,
            axis,
            a: a.values[axis],
            b: b.values[axis],
            where: formatWhere(
              a.values,
              varying.filter((other) => other !== axis),
            ),
            median_a: cellMedian(a, column),
            median_b: cellMedian(b, column),
            cells: [a.cell, b.cell],
            expect: `change, or no change within ±${STEP_EQUIVALENCE * 100}%`,
            comparison: compareCells(a, b, column),
          });
        }
      }
    }
  }
  return [...families.values()].flatMap((rows) => {
    const judged = judgeFamily(
      rows.map((row) => row.comparison),
      stepRegions(findMetric(rows[0].metric).unit),
    );
    return rows.map((row, i) => ({ ...row, ...judged[i], family: rows.length }));
  });
}
