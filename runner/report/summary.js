// runs → summary rows, one per cell: the cell's axis values, how many runs count, the statistics of its
// primary metrics, speedup and efficiency against a baseline cell, and medians of what the process saw.
import { usableCpus } from '../domain/usable-cpus.js';
import { median, modifiedZScores, summarizeSample, SUMMARY_STATS } from '../stats/statistics.js';
import { centreInterval } from '../stats/ratio.js';
import { AXES } from '../domain/axes.js';
import { SEEN_COLUMNS } from '../domain/columns.js';
import { metricsOf, primaryMetrics } from '../domain/metrics.js';
import { attachModels, listModelColumns, readModelValues } from './model-columns.js';
import { buildCell } from '../cells/cell.js';

// ci95_low / ci95_high: the 95% interval of the cell's centre (gmean, the geometric mean), Student's t on the
// logarithms — the interval the verdicts' ratios use (runner/stats/ratio.js), never below 0 for a positive metric.

/**
 * @param {{ runs: object[], info: object|null, axes: string[] }} results  from readResults
 * @param {{ baseline?: Record<string, unknown> }} [options]  axis values the baseline cell has
 * @returns {{ columns: string[], rows: object[], cells: object[], metrics: object[], outliers: object[] }}
 *   rows are CSV-ready; cells carry the same with the raw samples, for the other reports
 */
export function summarizeCells(results, { baseline } = {}) {
  const { runs, info, axes, keepDisturbed = false } = results;
  const hostCpus = info?.host?.cpus ?? null;
  const experiment = info?.experiment ?? runs[0]?.experiment;
  const sorting = { keepDisturbed, disturbedAbove: info?.config?.disturbed_above };
  const cells = listCells(results).map((cell) =>
    summarizeCell(
      experiment,
      buildCell(cell, runs, sorting),
      runs.filter((run) => run.cell === cell.cell),
      hostCpus,
    ),
  );
  const metrics = metricsOf([...new Set(cells.map((cell) => cell.workload))]);
  for (const cell of cells) cell.baseline = chooseBaseline(cells, cell.workload, baseline);
  for (const cell of cells) Object.assign(cell, measureSpeedup(cell));
  attachModels(cells, info);
  const columns = [
    'experiment',
    'cell',
    ...axes,
    'n',
    'failed',
    'warmups',
    'disturbed',
    ...metrics.flatMap(({ column }) => SUMMARY_STATS.map((stat) => `${column}_${stat}`)),
    ...listModelColumns(metrics),
    'baseline',
    'speedup',
    'efficiency',
    'cpu_capacity',
    ...SEEN_COLUMNS.map((column) => `${column}_median`),
  ];
  const rows = cells.map((cell) => toRow(cell, axes, metrics));
  const outliers = cells.flatMap((cell) => cell.outlierRuns);
  return { columns, rows, cells, metrics, outliers };
}

// Cells in run.json order (the matrix order); cells only runs.csv knows (no run.json) in order of appearance.
function listCells({ runs, info, axes }) {
  const cells = new Map(
    (info?.cells ?? []).map(({ cell, values, limits, params }) => [cell, { cell, values, limits, params }]),
  );
  for (const run of runs) {
    if (!cells.has(run.cell)) cells.set(run.cell, { cell: run.cell, values: null, firstRun: run });
  }
  return [...cells.values()].map(({ cell, values, limits, params, firstRun }) => ({
    cell,
    values: values ?? pickAxes(firstRun, axes),
    limits,
    params,
  }));
}

function pickAxes(run, axes) {
  return Object.fromEntries(axes.filter((axis) => run[axis] !== undefined).map((axis) => [axis, run[axis]]));
}

// The cell (cells/cell.js) with its statistics: what summary.csv, the charts, the verdicts and the advice read.
function summarizeCell(experiment, built, cellRuns, hostCpus) {
  const { cell, values, workload, runs: measured } = built;
  const stats = {};
  const outlierRuns = [];
  for (const metric of primaryMetrics(workload)) {
    const withValue = measured.filter((run) => Number.isFinite(run[metric.column]));
    const sample = withValue.map((run) => run[metric.column]);
    stats[metric.column] = summarizeMetric(sample);
    const scores = modifiedZScores(sample);
    for (const index of stats[metric.column].outliers) {
      outlierRuns.push({
        cell,
        values,
        metric: metric.column,
        repetition: withValue[index].repetition,
        value: sample[index],
        score: scores[index],
      });
    }
  }
  const seen = Object.fromEntries(
    SEEN_COLUMNS.map((column) => {
      const sample = measured.map((run) => run[column]).filter(Number.isFinite);
      return [column, median(sample)];
    }),
  );
  return {
    experiment,
    ...built,
    n: measured.length,
    failed: cellRuns.filter((run) => run.status !== 'ok').length,
    warmups: cellRuns.filter((run) => run.warmup === true).length,
    disturbed: cellRuns.filter((run) => run.disturbed === true && run.warmup !== true).length,
    stats,
    outlierRuns,
    seen,
    cpuCapacity: cpuCapacity(values, hostCpus ?? seen.seen_available_parallelism),
  };
}

/**
 * One metric of one cell: the description of its sample, with the interval of its centre in place of the mean's
 * (the mean's t interval goes below 0 for a skewed positive metric at n = 3, and answers no question the report asks).
 */
function summarizeMetric(sample) {
  const { n, median: middle, mean, stdev, min, max, cv, outliers } = summarizeSample(sample);
  const centre = centreInterval(sample);
  const gmean = centre?.centre ?? (n === 1 && sample[0] > 0 ? sample[0] : null);
  return {
    n,
    median: middle,
    gmean,
    mean,
    stdev,
    min,
    max,
    cv,
    ci95_low: centre?.low ?? null,
    ci95_high: centre?.high ?? null,
    outliers,
  };
}

/** The CPUs the container can use (runner/domain/usable-cpus.js): summary.csv's cpu_capacity. */
export const cpuCapacity = usableCpus;

/**
 * Per workload: the cell matching every key of `spec` (all cells when there is none) that has the least
 * CPU capacity, then the fewest processes, worker threads and pool threads; the matrix order breaks ties.
 */
export function chooseBaseline(cells, workload, spec = {}) {
  const candidates = cells.filter((cell) => cell.workload === workload && matches(cell.values, spec));
  if (candidates.length === 0) return null;
  return candidates.reduce((best, cell) => (compareResources(cell, best) < 0 ? cell : best));
}

function matches(values, spec) {
  return Object.entries(spec ?? {}).every(
    ([axis, wanted]) => values[axis] !== undefined && String(values[axis]) === String(wanted),
  );
}

function compareResources(a, b) {
  const key = ({ cpuCapacity: capacity, values }) => [
    capacity ?? Infinity,
    Math.max(1, values.cluster ?? 0),
    values.workers ?? 0,
    values.uv_threadpool_size ?? AXES.uv_threadpool_size.unset,
  ];
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
  return 0;
}

/**
 * speedup = how many times better the cell's median of the workload's first primary metric is than the
 * baseline's (baseline / cell for times, cell / baseline for rates); efficiency = speedup divided by the
 * ratio of CPU capacities (cell / baseline), only where the capacities differ.
 */
function measureSpeedup(cell) {
  const base = cell.baseline;
  const metric = primaryMetrics(cell.workload)[0];
  const ours = cell.stats[metric.column]?.median;
  const theirs = base?.stats[metric.column]?.median;
  if (!base || !ours || !theirs) return { speedup: null, efficiency: null };
  const speedup = metric.better === 'lower' ? theirs / ours : ours / theirs;
  // Between cells of equal capacity efficiency would only repeat the speedup (and read as "1.96 efficient").
  const differs = cell.cpuCapacity && base.cpuCapacity && cell.cpuCapacity !== base.cpuCapacity;
  const efficiency = differs ? speedup / (cell.cpuCapacity / base.cpuCapacity) : null;
  return { speedup, efficiency };
}

function toRow(cell, axes, metrics) {
  const row = {
    experiment: cell.experiment,
    cell: cell.cell,
    n: cell.n,
    failed: cell.failed,
    warmups: cell.warmups,
    disturbed: cell.disturbed,
  };
  for (const axis of axes) row[axis] = cell.values[axis];
  for (const { column } of metrics) {
    const stats = cell.stats[column];
    if (!stats) continue;
    for (const stat of SUMMARY_STATS)
      row[`${column}_${stat}`] = stat === 'outliers' ? stats.outliers.length : roundTo(stats[stat]);
  }
  for (const [column, value] of Object.entries(readModelValues(cell, metrics))) row[column] = roundTo(value);
  Object.assign(row, {
    baseline: cell.baseline?.cell,
    speedup: roundTo(cell.speedup),
    efficiency: roundTo(cell.efficiency),
    cpu_capacity: cell.cpuCapacity,
  });
  for (const column of SEEN_COLUMNS) row[`${column}_median`] = roundTo(cell.seen[column]);
  return row;
}

/** 6 significant digits: more than any run-to-run noise resolves, and readable in a spreadsheet. */
export function roundTo(value, digits = 6) {
  return typeof value === 'number' && Number.isFinite(value) ? Number(value.toPrecision(digits)) : null;
}
