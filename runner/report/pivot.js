// Summary rows → pivot tables like the published ones: one axis down, another across, a statistic of a
// metric in each cell (by default pool threads down, CPUs across, the median wall time). One table per
// workload, metric and combination of the other axes that vary ("slice").
import { listPivotAxes } from '../domain/axes.js';
import { groupByAxes, orderValues, varyingAxes } from '../cells/cell.js';
import { findMetric, primaryMetrics } from '../domain/metrics.js';

const COLUMN_AXES = listPivotAxes('column');
const ROW_AXES = listPivotAxes('row');
const PLAIN_COLUMNS = new Set(['speedup', 'efficiency', 'n', 'failed', 'cpu_capacity']);

/**
 * @typedef {{ name: string, workload: string, metric: string, stat: string, column: string, rows: string,
 *   columns: string|null, slice: Record<string, unknown>, rowValues: unknown[], columnValues: unknown[],
 *   values: Array<Array<number|null>>, cellIds: Array<Array<string|null>> }} Pivot
 *   values[i][j] (and the summary row's cell id) is for rowValues[i] × columnValues[j]
 */

/**
 * @param {object[]} rows  summary rows
 * @param {string[]} axes  axis columns of the results
 * @param {Array<{rows: string, columns?: string, metric?: string, stat?: string}>} [specs]  from `report.pivots`
 * @returns {{ pivots: Pivot[], notes: string[] }}  notes say which requested pivots could not be built
 */
export function buildPivots(rows, axes, specs) {
  const pivots = [];
  const notes = [];
  for (const workload of orderValues(rows.map((row) => row.workload))) {
    const cells = rows.filter((row) => row.workload === workload);
    const varying = varyingAxes(
      cells,
      axes.filter((axis) => axis !== 'workload'),
      { valuesOf: (row) => row },
    );
    const wanted = specs?.length ? specs : defaultSpecs(varying);
    for (const spec of wanted) {
      const metrics = spec.metric ? [spec.metric] : primaryMetrics(workload).map((metric) => metric.column);
      for (const metric of metrics) {
        const stat = spec.stat ?? 'median';
        const column = PLAIN_COLUMNS.has(metric) ? metric : `${metric}_${stat}`;
        const missing = [spec.rows, spec.columns].filter((axis) => axis && !axes.includes(axis));
        if (missing.length) {
          notes.push(`pivot ${formatPivotSpec(spec)} for ${workload}: no axis ${missing.join(', ')} in these results`);
        } else if (!cells.some((row) => typeof row[column] === 'number')) {
          notes.push(`pivot ${formatPivotSpec(spec)} for ${workload}: summary.csv has no values in column ${column}`);
        } else {
          const sliceAxes = varying.filter((axis) => axis !== spec.rows && axis !== spec.columns);
          for (const group of groupByAxes(cells, sliceAxes, { valuesOf: (row) => row }))
            pivots.push(
              pivotCells(group, {
                workload,
                metric,
                stat,
                column,
                rows: spec.rows,
                columns: spec.columns ?? null,
                sliceAxes,
              }),
            );
        }
      }
    }
  }
  return { pivots, notes };
}

/** Pool threads (or workers, cluster, an env axis) down; CPUs (or cpuset, node) across; whatever varies. */
export function defaultSpecs(varying) {
  if (varying.length === 0) return [];
  const columns = COLUMN_AXES.find((axis) => varying.includes(axis)) ?? (varying.length > 1 ? varying[1] : null);
  const rows =
    ROW_AXES.find((axis) => varying.includes(axis) && axis !== columns) ?? varying.find((axis) => axis !== columns);
  if (!rows) return [{ rows: columns, columns: null }];
  return [{ rows, columns }];
}

function pivotCells(cells, { workload, metric, stat, column, rows, columns, sliceAxes }) {
  const slice = Object.fromEntries(sliceAxes.map((axis) => [axis, cells[0][axis]]));
  const rowValues = orderValues(cells.map((row) => row[rows]));
  const columnValues = columns ? orderValues(cells.map((row) => row[columns])) : [column];
  const found = rowValues.map((rowValue) =>
    columnValues.map((columnValue) =>
      cells.find((row) => row[rows] === rowValue && (!columns || row[columns] === columnValue)),
    ),
  );
  const values = found.map((line) => line.map((cell) => (typeof cell?.[column] === 'number' ? cell[column] : null)));
  const cellIds = found.map((line) => line.map((cell) => cell?.cell ?? null));
  const sliceName = Object.entries(slice)
    .map(([axis, value]) => `${axis}=${value ?? 'unset'}`)
    .join('-');
  const name = safeName(
    ['pivot', workload, column, rows, columns ? `by-${columns}` : null, sliceName || null].filter(Boolean).join('-'),
  );
  return { name, workload, metric, stat, column, rows, columns, slice, rowValues, columnValues, values, cellIds };
}

/** The table as CSV-ready records: a corner cell "rows \ columns", then one row per row value. */
export function pivotToRecords(pivot) {
  const corner = pivot.columns ? `${pivot.rows} \\ ${pivot.columns}` : pivot.rows;
  const header = [corner, ...pivot.columnValues.map((value) => formatAxisValue(value))];
  const body = pivot.rowValues.map((rowValue, i) => [formatAxisValue(rowValue), ...pivot.values[i]]);
  return { header, body };
}

/** "wall_ms_median (ms)", "speedup (×)", "wall_ms_cv" (a cv is a fraction: no unit). */
export function formatPivotValue(pivot) {
  const { unit } = findMetric(pivot.metric);
  return unit && pivot.stat !== 'cv' ? `${pivot.column} (${unit})` : pivot.column;
}

export function formatAxisValue(value) {
  return value === undefined || value === null ? 'unset' : String(value);
}

function formatPivotSpec({ rows, columns, metric, stat }) {
  return `${rows}${columns ? ` × ${columns}` : ''}${metric ? ` of ${metric}` : ''}${stat ? ` ${stat}` : ''}`;
}

function safeName(text) {
  return text.replace(/[^A-Za-z0-9._=-]+/g, '_');
}
