// Results (from readResults) → everything the reports show, computed once: summary, pivots, the runs
// whose task waves the HTML draws, failures, and the words that explain each workload's baseline.
import { summarizeCells } from './summary.js';
import { isFirstPass } from '../domain/columns.js';
import { isMeasured } from '../domain/interference.js';
import { getWorkload } from '../domain/workloads.js';
import { buildPivots } from './pivot.js';
import { formatCellValues, formatNumber } from './format.js';
import { median } from '../stats/statistics.js';
import { isPrimaryMetric } from '../domain/metrics.js';
import { buildVerdicts, judgeResults } from './verdicts.js';
import { buildAdvice } from './advice.js';
import { buildCapacity } from './capacity.js';

/**
 * @param {object} results  readResults(dir)
 * @param {{ baseline?: object, pivots?: object[] }} [options]  defaults: run.json config.report
 */
// What a capacity search has instead of advice: its runs are at many rates, and its answer is the capacity.
const NO_ADVICE = Object.freeze({ answers: [], rows: [], tables: [], race: null });

export function buildReport(results, options = {}) {
  const reportConfig = results.info?.config?.report ?? {};
  const baseline = options.baseline ?? reportConfig.baseline;
  const summary = summarizeCells(results, { baseline });
  const capacity = buildCapacity(results);
  const { pivots, notes } = buildPivots(summary.rows, results.axes, options.pivots ?? reportConfig.pivots);
  // The line charts show medians of primary metrics: from the configured pivots that have them, else the default ones.
  const medians = (list) => list.filter((pivot) => pivot.stat === 'median' && isPrimaryMetric(pivot.metric));
  const linePivots = medians(pivots).length ? medians(pivots) : medians(buildPivots(summary.rows, results.axes).pivots);
  const workloads = [...new Set(summary.cells.map((cell) => cell.workload))];
  return {
    info: results.info,
    experiment: results.info?.experiment ?? results.runs[0]?.experiment ?? 'results',
    axes: results.axes,
    workloads,
    summary,
    pivots,
    linePivots,
    notes: [
      ...notes,
      ...baselineNotes(summary.cells, workloads, baseline, results.axes),
      ...disturbedNotes(summary.cells, results),
      ...sharedLoaderNotes(summary.cells, results.axes),
    ],
    baselines: listBaselines(summary.cells, workloads, results.axes),
    counts: countRuns(results),
    disturbed: listDisturbed(results),
    failures: results.runs.filter((run) => run.status !== 'ok'),
    waves: pickWaveRuns(summary.cells, results.tasks, results.axes),
    // A capacity search's runs are at many rates: its answer is the capacity, not steps or advice at one rate.
    verdicts: capacity ? buildVerdicts([], results.axes) : judgeResults(results, { summary }),
    advice: capacity ? NO_ADVICE : buildAdvice(results, summary),
    // With `slo:`: the capacity search's answer per budget (null without).
    capacity,
  };
}

function countRuns({ runs, keepDisturbed }) {
  return {
    total: runs.length,
    measured: runs.filter((run) => isMeasured(run, { keepDisturbed })).length,
    failed: runs.filter((run) => run.status !== 'ok').length,
    warmups: runs.filter((run) => run.warmup === true).length,
    disturbed: runs.filter((run) => run.disturbed === true && run.warmup !== true).length,
    reruns: runs.filter((run) => Number.isFinite(run.rerun_of)).length,
  };
}

/**
 * The disturbed runs (warm-ups aside), each with the run made in its place, if any; and the rule they were judged by.
 */
function listDisturbed({ runs, info, keepDisturbed }) {
  const rerunOf = (run) => runs.find((other) => other.cell === run.cell && other.rerun_of === run.repetition);
  return {
    above: info?.config?.disturbed_above ?? null,
    maxReruns: info?.config?.max_reruns ?? null,
    kept: keepDisturbed,
    runs: runs
      .filter((run) => run.disturbed === true && run.warmup !== true)
      .map((run) => ({ run, rerun: rerunOf(run) ?? null })),
  };
}

function listBaselines(cells, workloads, axes) {
  return workloads.map((workload) => {
    const base = cells.find((cell) => cell.workload === workload)?.baseline;
    return {
      workload,
      cell: base?.cell ?? null,
      text: base ? formatCellValues(base.values, axes) : null,
      cpuCapacity: base?.cpuCapacity ?? null,
    };
  });
}

function baselineNotes(cells, workloads, spec, axes) {
  const notes = [];
  for (const workload of workloads) {
    const base = cells.find((cell) => cell.workload === workload)?.baseline;
    if (!base)
      notes.push(
        `${workload}: no cell matches report.baseline ${JSON.stringify(spec)}, so it has no speedup or efficiency`,
      );
    else if (base.n === 0)
      notes.push(
        `${workload}: the baseline cell ${base.cell} (${formatCellValues(base.values, axes)}) has no ok run, so no speedup or efficiency`,
      );
  }
  return notes;
}

// A cell left with no measurement because the host was busy every time says so, rather than showing blanks.
function disturbedNotes(cells, { axes, keepDisturbed }) {
  if (keepDisturbed) return [];
  return cells
    .filter((cell) => cell.n === 0 && cell.disturbed > 0)
    .map(
      (cell) =>
        `every run of ${cell.cell} (${formatCellValues(cell.values, axes)}) was disturbed (${cell.disturbed}, re-runs included): it has no measurement; run it again when the host is quieter, or count them with --keep-disturbed`,
    );
}

/**
 * http cells whose load generator ran on the server's CPUs (loader_shared: the host had none to spare beyond the cell's
 * budget, plan/loader-limits.js): what it took, measured, so a reader can judge how much the server's numbers lost to
 * it.
 */
function sharedLoaderNotes(cells, axes) {
  const shared = cells
    .map((cell) => ({ cell, runs: cell.runs.filter((run) => run.loader_shared === true) }))
    .filter(({ runs }) => runs.length > 0);
  if (shared.length === 0) return [];
  const described = shared.map(({ cell, runs }) => {
    const cpuMs = median(runs.map((run) => run.loader_cpu_ms).filter(Number.isFinite));
    const periodMs = median(runs.map((run) => run.wall_ms).filter(Number.isFinite));
    const took =
      cpuMs === null
        ? 'its CPU time was not recorded'
        : `${formatNumber(cpuMs, 3)} ms of CPU a run${periodMs ? ` (${formatNumber(cpuMs / periodMs, 2)} CPU over the ${formatNumber(periodMs / 1000, 3)} s measured)` : ''}`;
    return `${formatCellValues(cell.values, axes)}: ${took}`;
  });
  return [
    `the load generator shared the server's CPUs (loader_shared) in ${shared.length} cell${shared.length === 1 ? '' : 's'}, so their numbers are the server's with the loader competing for CPU; median loader_cpu_ms: ${described.join('; ')}`,
  ];
}

/**
 * Per cell, the first measured repetition that has tasks: its task rows, sorted by task index.
 * Warm-up tasks are left out when tasks.csv says which they are. A server's rows are seconds of its measured period,
 * not tasks that finish in waves: none of them.
 */
function pickWaveRuns(cells, tasks, axes) {
  const byRun = new Map();
  for (const task of tasks) {
    if (task.warmup === true || !isFirstPass(task)) continue;
    const key = `${task.cell}.${task.repetition}`;
    if (!byRun.has(key)) byRun.set(key, []);
    byRun.get(key).push(task);
  }
  return cells.flatMap((cell) => {
    if (getWorkload(cell.workload)?.serves) return [];
    const run = [...cell.runs]
      .sort((a, b) => a.repetition - b.repetition)
      .find((candidate) => byRun.has(`${cell.cell}.${candidate.repetition}`));
    if (!run) return [];
    const runTasks = byRun.get(`${cell.cell}.${run.repetition}`).sort((a, b) => a.task - b.task);
    return [
      {
        cell: cell.cell,
        label: formatCellValues(cell.values, axes),
        repetition: run.repetition,
        wall_ms: run.wall_ms,
        tasks: runTasks,
      },
    ];
  });
}
