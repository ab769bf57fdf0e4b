// The figures of docs/findings.md: a chart per directive (an SVG beside the page, every run a dot) and the
// order in which tasks finished (waves). Both read only the measured runs of one results folder (ok, not warm-up,
// not disturbed: domain/interference.js).
import { sortByAxes } from '../../runner/cells/cell.js';
import { isMeasured } from '../../runner/domain/interference.js';
import { findMetric } from '../../runner/domain/metrics.js';
import { median } from '../../runner/stats/statistics.js';
import { summarizeCells } from '../../runner/report/summary.js';
import { renderSvgChart } from '../../runner/report/svg-chart.js';
import { ONE_WAVE_SPAN, WAVE_GAP_SHARE, describeTaskOrder, summarizeWaves } from '../../runner/report/task-order.js';

/** Where charts go, relative to the page. */
export const CHARTS_DIR = 'findings/charts';

/** The measured runs (of one axis value, with `where`), in cell order: tables and charts order text values by it. */
export function selectRuns(folder, where) {
  const [axis, value] = where ? where.split(':') : [];
  return inCellOrder(
    folder,
    folder.runs.filter((run) => isMeasured(run, folder) && (!axis || String(run[axis]) === value)),
  );
}

// run.json's cell order is the matrix order; runs.csv's is the shuffled run order.
function inCellOrder(folder, runs) {
  const rank = new Map((folder.info?.cells ?? []).map(({ cell }, index) => [cell, index]));
  return [...runs].sort((a, b) => (rank.get(a.cell) ?? Infinity) - (rank.get(b.cell) ?? Infinity));
}

/**
 * `findings:chart EXPERIMENT metric=M x=AXIS [series=AXIS] [where=AXIS:VALUE]` → the SVG's path (relative to the
 * page) and bytes, and the page's lines: the image and a caption.
 */
export function renderChart({ name, metric, x, series, where }, folder) {
  const runs = selectRuns(folder, where).filter((run) => Number.isFinite(run[metric]));
  const { unit, label } = findMetric(metric);
  const path = `${CHARTS_DIR}/${[name, metric, x, series && `by-${series}`, where?.replace(':', '-')].filter(Boolean).join('--')}.svg`;
  const title = `${name}: ${label === metric ? metric : `${label} (${metric})`}${where ? ` at ${where.replace(':', ' ')}` : ''}`;
  const svg = renderSvgChart({
    title,
    xLabel: x,
    yLabel: unit ? `${metric} (${unit})` : metric,
    seriesLabel: series,
    points: runs.map((run) => ({ x: run[x], y: run[metric], ...(series ? { series: run[series] } : {}) })),
    model: listModelPoints(folder, { metric, x, series, where }),
  });
  const lines = [
    `![${title}](${path})`,
    '',
    `*${metric} by ${x}${series ? `, one line per ${series}` : ''}: each dot one run (${runs.length} runs), each bar the median of a cell, dashed the capacity model.*`,
  ];
  return { path, svg, lines };
}

// The capacity model of each cell the chart shows (summary.js puts it on the cells), as chart points.
function listModelPoints(folder, { metric, x, series, where }) {
  const [axis, value] = where ? where.split(':') : [];
  return summarizeCells(folder)
    .cells.filter((cell) => Number.isFinite(cell.model?.[metric]) && (!axis || String(cell.values[axis]) === value))
    .map((cell) => ({ x: cell.values[x], y: cell.model[metric], ...(series ? { series: cell.values[series] } : {}) }));
}

/**
 * `findings:order EXPERIMENT [rows=AXIS] [columns=AXIS]` → per cell, the waves each run showed and the median
 * time of the k-th completion.
 */
export function renderOrder({ rows: rowAxis, columns: columnAxis }, folder) {
  const runs = describeTaskOrder(folder.tasks);
  if (runs.length === 0) return ['(tasks.csv has no tasks)'];
  const cellValues = new Map(inCellOrder(folder, folder.runs).map((run) => [run.cell, run]));
  const axes = [rowAxis, columnAxis].filter(Boolean);
  const byCell = new Map();
  for (const run of runs) {
    if (!cellValues.has(run.cell)) continue;
    if (!byCell.has(run.cell)) byCell.set(run.cell, []);
    byCell.get(run.cell).push(run);
  }
  const cells = sortByAxes(
    [...cellValues.keys()].filter((cell) => byCell.has(cell)),
    axes,
    { valuesOf: (cell) => cellValues.get(cell) },
  );
  const lines = [
    `| ${axes.join(' | ')} | waves (runs) | k-th completion, ms from the start (median of the runs) |`,
    `| ${axes.map(() => '---').join(' | ')} | --- | --- |`,
  ];
  for (const cell of cells) {
    const cellRuns = byCell.get(cell);
    const count = Math.min(...cellRuns.map((run) => run.ends.length));
    const medians = Array.from({ length: count }, (_, k) => Math.round(median(cellRuns.map((run) => run.ends[k]))));
    lines.push(
      `| ${axes.map((axis) => cellValues.get(cell)[axis]).join(' | ')} | ${summarizeWaves(cellRuns)} | ${medians.join(', ')} |`,
    );
  }
  return [
    ...lines,
    '',
    `Waves (from tasks.csv): tasks that finished together. A run whose completions all fall within ${ONE_WAVE_SPAN} × its first completion's time is one wave; otherwise a new wave starts at every gap between completions longer than ${WAVE_GAP_SHARE} × the run's longest gap.`,
  ];
}
