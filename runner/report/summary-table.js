// The summary as a table for people (report.md and report.html show the same one): the axes that vary,
// n, each primary metric's median with the 95% CI of the cell's centre (the interval the answers use) and cv,
// outliers, speedup, efficiency and what the process saw.
import { varyingAxes } from '../cells/cell.js';
import { primaryMetrics } from '../domain/metrics.js';
import { formatNumber, formatPercent } from './format.js';

/** The header of a cell's interval: the geometric mean's 95% CI, Student's t on the logarithms (summary.js). */
export const CENTRE_CI_HEADER = '95% CI of the centre';

/** The columns a person reads first, as text: varying axes, n, each primary metric, speedup, what the process saw. */
export function buildSummaryTable(report, workload) {
  const cells = report.summary.cells.filter((cell) => cell.workload === workload);
  const axes = varyingAxes(cells, report.axes, { orAllSet: true });
  const metrics = primaryMetrics(workload);
  const header = [
    ...axes,
    'n',
    ...metrics.flatMap(({ column, unit }) => [`${column} median (${unit})`, CENTRE_CI_HEADER, 'cv']),
    'outliers',
    'speedup',
    'efficiency',
    'seen parallelism',
    'seen quota',
    'peak threads',
    'throttled ms',
  ];
  if (cells.some((cell) => cell.failed)) header.splice(axes.length + 1, 0, 'failed');
  const rows = cells.map((cell) => {
    const row = [...axes.map((axis) => cell.values[axis] ?? 'unset'), cell.n];
    if (header.includes('failed')) row.push(cell.failed);
    for (const { column } of metrics) {
      const stats = cell.stats[column];
      row.push(
        formatNumber(stats.median),
        stats.ci95_low === null ? '' : `${formatNumber(stats.ci95_low)}–${formatNumber(stats.ci95_high)}`,
        formatPercent(stats.cv, 2),
      );
    }
    row.push(
      metrics.reduce((sum, { column }) => sum + cell.stats[column].outliers.length, 0) || '',
      cell.baseline?.cell === cell.cell ? '1 (baseline)' : formatNumber(cell.speedup, 3),
      formatNumber(cell.efficiency, 3),
      formatNumber(cell.seen.seen_available_parallelism),
      formatNumber(cell.seen.seen_cpu_quota),
      formatNumber(cell.seen.peak_threads),
      formatNumber(cell.seen.throttled_ms),
    );
    return row;
  });
  return { header, rows };
}
