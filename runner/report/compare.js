// Two results folders → per cell present in both and per primary metric: both medians, the ratio B / A of
// geometric means with its 95% interval (Welch's t on the logs), the p-value, Node's significance stars and a
// verdict that is "same" only when the interval lies inside the threshold.
import { mean } from 'simple-statistics';
import { significanceMark } from '../stats/statistics.js';
import { compareUnpaired } from '../verdicts/compare-pair.js';
import { DEFAULT_THRESHOLD, judgeChange, pairCells } from '../verdicts/compare-cells.js';
import { primaryMetrics, findMetric } from '../domain/metrics.js';
import { roundTo, summarizeCells } from './summary.js';
import { formatCellValues, formatNumber } from './format.js';

export const COMPARE_COLUMNS = [
  'cell', 'cell_b', 'metric', 'n_a', 'n_b', 'median_a', 'median_b', 'mean_a', 'mean_b',
  'ratio', 'ratio_ci95_low', 'ratio_ci95_high', 'p_value', 'significance', 'verdict', 'regression',
];

/**
 * @param {object} a  readResults(DIR_A): the reference
 * @param {object} b  readResults(DIR_B): the one being judged
 * @param {{ threshold?: number, matchOn?: string }} [options]  threshold: half-width of the "same" band and
 *   the regression gate (0.05 = 5%); matchOn: pair cells that differ only in this axis (e.g. `node`)
 * @returns {{ columns: string[], rows: object[], axes: string[], onlyA: object[], onlyB: object[], threshold: number,
 *   matchOn: string|undefined, regressions: object[] }}
 *   verdict (in the metric's direction): `better` / `worse` when the interval excludes 1, `same` when it lies inside
 *   ±threshold, else `inconclusive`; regression: worse by more than the threshold, the whole interval beyond it;
 *   onlyA / onlyB: cells ({cell, values}) in one folder only
 */
export function compareResults(a, b, { threshold = DEFAULT_THRESHOLD, matchOn } = {}) {
  const axes = [...new Set([...a.axes, ...b.axes])];
  const paramsOf = (side, id) => (side === 'a' ? a : b).info?.cells?.find((cell) => cell.cell === id)?.params ?? null;
  const { pairs, onlyA, onlyB } = pairCells(summarizeCells(a).cells, summarizeCells(b).cells, { matchOn, paramsOf });
  const rows = [];
  for (const { a: cellA, b: cellB } of pairs) {
    for (const { column, better } of primaryMetrics(cellA.workload)) {
      const x = cellA.runs.map((run) => run[column]).filter(Number.isFinite);
      const y = cellB.runs.map((run) => run[column]).filter(Number.isFinite);
      const result = compareUnpaired(x, y);
      const { verdict, regression, p } = judgeChange(result, better, threshold);
      const row = {
        cell: cellA.cell,
        cell_b: cellB.cell,
        ...Object.fromEntries(axes.map((axis) => [axis, axis === matchOn ? `${cellA.values[axis] ?? ''}→${cellB.values[axis] ?? ''}` : cellA.values[axis]])),
        metric: column,
        n_a: cellA.stats[column].n,
        n_b: cellB.stats[column].n,
        median_a: cellA.stats[column].median,
        median_b: cellB.stats[column].median,
        mean_a: x.length ? mean(x) : null,
        mean_b: y.length ? mean(y) : null,
        ratio: result.ratio,
        ratio_ci95_low: result.ci95_low,
        ratio_ci95_high: result.ci95_high,
        p_value: p,
        significance: significanceMark(p),
        verdict,
        regression,
      };
      for (const key of ['median_a', 'median_b', 'mean_a', 'mean_b', 'ratio', 'ratio_ci95_low', 'ratio_ci95_high', 'p_value']) row[key] = roundTo(row[key]);
      rows.push(row);
    }
  }
  const pick = ({ cell, values }) => ({ cell, values });
  return {
    columns: [...COMPARE_COLUMNS.slice(0, 2), ...axes, ...COMPARE_COLUMNS.slice(2)],
    rows,
    axes,
    onlyA: onlyA.map(pick),
    onlyB: onlyB.map(pick),
    threshold,
    matchOn,
    regressions: rows.filter((row) => row.regression),
  };
}

/** The comparison as an aligned text table for the terminal, with the legend Node's compare prints. */
export function formatComparison({ rows, axes, onlyA, onlyB, threshold = DEFAULT_THRESHOLD }, { labelA = 'A', labelB = 'B' } = {}) {
  const table = [['cell', 'metric', `median ${labelA}`, `median ${labelB}`, `ratio ${labelB}/${labelA} [95% CI]`, '', 'p', 'verdict']];
  for (const row of rows) {
    const { unit } = findMetric(row.metric);
    const interval = row.ratio_ci95_low === null ? '' : ` [${formatNumber(row.ratio_ci95_low)}, ${formatNumber(row.ratio_ci95_high)}]`;
    table.push([
      formatCellValues(row, axes),
      row.metric,
      `${formatNumber(row.median_a)} ${unit}`,
      `${formatNumber(row.median_b)} ${unit}`,
      `${formatNumber(row.ratio)}${interval}`,
      row.significance,
      row.p_value === null ? 'n<2' : formatNumber(row.p_value, 2),
      row.verdict,
    ]);
  }
  const widths = table[0].map((_, i) => Math.max(...table.map((line) => line[i].length)));
  const lines = table.map((line) => line.map((text, i) => (i >= 2 && i <= 3 ? text.padStart(widths[i]) : text.padEnd(widths[i]))).join('  ').trimEnd());
  const tested = rows.filter((row) => row.p_value !== null).length;
  lines.push(
    '',
    "ratio = geometric mean B / geometric mean A; its 95% CI is Welch's t on the logarithms of the values.",
    "Significance (that test): * p < 0.05, ** p < 0.01, *** p < 0.001. verdict follows the metric's direction",
    '(lower wall_ms / latency is better, higher requests_per_sec is better): better / worse when the CI excludes 1,',
    `same only when the CI lies inside ±${formatNumber(threshold * 100)}%, otherwise inconclusive (more runs would tell).`,
  );
  if (tested > 0) {
    lines.push(`Be aware that with ${tested} comparisons about ${formatNumber(tested * 0.05, 2)} will show *, ${formatNumber(tested * 0.01, 2)} ** and ${formatNumber(tested * 0.001, 2)} *** by chance alone when nothing changed.`);
  }
  for (const [label, cells] of [[labelA, onlyA], [labelB, onlyB]]) {
    if (cells.length) lines.push(`Only in ${label} (not compared; a changed param, env or memory limit makes a new cell id; --match-on AXIS pairs cells across one axis): ${cells.map(({ cell, values }) => `${cell} (${formatCellValues(values, axes)})`).join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}
