// Two results folders → per cell present in both and per primary metric: both medians, the ratio of
// means B / A with its 95% interval, Welch's p and Node's significance stars.
import { compareSamples } from '../stats/statistics.js';
import { primaryMetrics, findMetric } from '../domain/metrics.js';
import { roundTo, summarizeCells } from './summary.js';
import { formatCellValues, formatNumber } from './format.js';

export const COMPARE_COLUMNS = [
  'cell', 'metric', 'n_a', 'n_b', 'median_a', 'median_b', 'mean_a', 'mean_b',
  'ratio', 'ratio_ci95_low', 'ratio_ci95_high', 'p_value', 'significance', 'verdict',
];

/**
 * @param {object} a  readResults(DIR_A): the reference
 * @param {object} b  readResults(DIR_B): the one being judged
 * @returns {{ columns: string[], rows: object[], axes: string[], onlyA: object[], onlyB: object[] }}
 *   verdict: `better` / `worse` when p < 0.05 (in the metric's direction), `same` when not, '' when
 *   either side has fewer than 2 runs; onlyA / onlyB: cells ({cell, values}) in one folder only
 */
export function compareResults(a, b) {
  const axes = [...new Set([...a.axes, ...b.axes])];
  const cellsA = summarizeCells(a).cells;
  const cellsB = new Map(summarizeCells(b).cells.map((cell) => [cell.cell, cell]));
  const rows = [];
  for (const cellA of cellsA) {
    const cellB = cellsB.get(cellA.cell);
    if (!cellB) continue;
    for (const { column, better } of primaryMetrics(cellA.workload)) {
      const x = cellA.runs.map((run) => run[column]);
      const y = cellB.runs.map((run) => run[column]);
      const result = compareSamples(x, y);
      const row = {
        cell: cellA.cell,
        ...Object.fromEntries(axes.map((axis) => [axis, cellA.values[axis]])),
        metric: column,
        n_a: cellA.stats[column].n,
        n_b: cellB.stats[column].n,
        median_a: cellA.stats[column].median,
        median_b: cellB.stats[column].median,
        mean_a: result.mean_a,
        mean_b: result.mean_b,
        ratio: result.ratio,
        ratio_ci95_low: result.ratio_ci95_low,
        ratio_ci95_high: result.ratio_ci95_high,
        p_value: result.p,
        significance: result.significance,
        verdict: judge(result, better),
      };
      for (const key of ['median_a', 'median_b', 'mean_a', 'mean_b', 'ratio', 'ratio_ci95_low', 'ratio_ci95_high', 'p_value']) row[key] = roundTo(row[key]);
      rows.push(row);
    }
  }
  const idsA = new Set(cellsA.map((cell) => cell.cell));
  const pick = ({ cell, values }) => ({ cell, values });
  return {
    columns: [COMPARE_COLUMNS[0], ...axes, ...COMPARE_COLUMNS.slice(1)],
    rows,
    axes,
    onlyA: cellsA.filter((cell) => !cellsB.has(cell.cell)).map(pick),
    onlyB: [...cellsB.values()].filter((cell) => !idsA.has(cell.cell)).map(pick),
  };
}

function judge({ p, ratio }, better) {
  if (p === null || ratio === null) return '';
  if (p >= 0.05) return 'same';
  return (ratio < 1) === (better === 'lower') ? 'better' : 'worse';
}

/** The comparison as an aligned text table for the terminal, with the legend Node's compare prints. */
export function formatComparison({ rows, axes, onlyA, onlyB }, { labelA = 'A', labelB = 'B' } = {}) {
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
    'ratio = mean B / mean A; its 95% CI is 1 + (Welch 95% CI of mean B − mean A) / mean A.',
    "Significance (Welch's t-test): * p < 0.05, ** p < 0.01, *** p < 0.001. verdict follows the metric's direction",
    '(lower wall_ms / latency is better, higher requests_per_sec is better).',
  );
  if (tested > 0) {
    lines.push(`Be aware that with ${tested} comparisons about ${formatNumber(tested * 0.05, 2)} will show *, ${formatNumber(tested * 0.01, 2)} ** and ${formatNumber(tested * 0.001, 2)} *** by chance alone when nothing changed.`);
  }
  for (const [label, cells] of [[labelA, onlyA], [labelB, onlyB]]) {
    if (cells.length) lines.push(`Only in ${label} (not compared; a changed param, env or memory limit makes a new cell id): ${cells.map(({ cell, values }) => `${cell} (${formatCellValues(values, axes)})`).join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}
