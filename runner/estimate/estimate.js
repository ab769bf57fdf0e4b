// How long a plan will take, before it runs, from the most relevant figures there are, each cell on its own:
// 1. an earlier results folder that ran the same cell (the median time of its runs there, container start to
//    removal: runs.csv's started_at → finished_at);
// 2. an earlier folder that ran the same work (same workload, parameters and non-capacity axes) on other pool sizes,
//    quotas or processes: the workload's capacity model calibrated there (runner/model/) predicts the cell's wall_ms,
//    plus what a run took there beyond it (the container, Node.js start-up);
//    the folders are, in this order, the one being resumed or the newest of the same experiment, the other folders
//    under the results root, newest first, and last the figures shipped with the package (run-time-figures.json,
//    written by scripts/write-run-time-figures.js from the committed folders under docs/: a calibration that needs no
//    engine, measured on the host named there);
// 3. the runner's benchmarked overhead per run (bench-figures.json, `npm run bench -- --docs`) plus what the workload
//    is known to take from its parameters (http: warm-up + measured seconds); for any other workload its own time is
//    not known, and the estimate is a lower bound that says so.
import { readFileSync } from 'node:fs';
import { getWorkload } from '../domain/workloads.js';
import { formatCalibrationKey } from '../model/calibrate.js';
import { toModelCell } from '../model/model-cell.js';
import { predictCell } from '../model/predict.js';

const FIGURES_URL = new URL('./bench-figures.json', import.meta.url);
const RUN_TIMES_URL = new URL('./run-time-figures.json', import.meta.url);

/** The run times shipped with the package, as a source (run-times.js's shape, with `shipped` and `host`), or null. */
export function readShippedRunTimes() {
  try {
    return { ...JSON.parse(readFileSync(RUN_TIMES_URL, 'utf8')), shipped: true };
  } catch {
    return null;
  }
}

/** The benchmark's figures, or null when they were never written. */
export function readBenchFigures() {
  try {
    return JSON.parse(readFileSync(FIGURES_URL, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * @param {{ cells: object[] }} plan
 * @param {object} options
 * @param {object[]} options.pending    this plan's runs still to do
 * @param {Map<string, number>} options.extra  the most runs adaptive rounds or a race may add, per cell id
 * @param {{ overhead_ms: number, startup_ms: number }|null} options.bench
 * @param {object[]} [options.sources]  earlier folders' run times (run-times.js summarizeRunTimes), most relevant first
 * @param {number|null} [options.hostCpus]  the engine's CPUs, for cells without a quota or cpuset (null: unknown)
 * @param {number} [options.lanes]  runs at once (engines × slots)
 * @returns {{ perCell: Map<string, { ms: number|null, from: 'measured'|'model'|'benchmark'|null, source: string|null,
 *   lowerBound: boolean }>, planned_ms: number|null, extra_ms: number|null, lower_bound: boolean,
 *   measured_cells: number, model_cells: number, lanes: number }}  source: the folder a figure comes from
 */
export function estimatePlan(plan, { pending, extra, bench, sources = [], hostCpus = null, lanes = 1 }) {
  const perCell = new Map(plan.cells.map((cell) => [cell.cell, estimateRun(cell, { bench, sources, hostCpus })]));
  const unknown = [...perCell.values()].some((estimate) => estimate.ms === null);
  const sumOver = (counts) => [...counts].reduce((sum, [cell, count]) => sum + count * (perCell.get(cell)?.ms ?? 0), 0);
  const plannedCounts = countByCell(pending);
  const planned = unknown ? null : sumOver(plannedCounts) / lanes + (pending.length > 0 ? (bench?.startup_ms ?? 0) : 0);
  const count = (from) => [...perCell.values()].filter((estimate) => estimate.from === from).length;
  return {
    perCell,
    planned_ms: planned,
    extra_ms: unknown ? null : sumOver(extra) / lanes,
    lower_bound: [...plannedCounts.keys()].some((cell) => perCell.get(cell).lowerBound),
    measured_cells: count('measured'),
    model_cells: count('model'),
    lanes,
  };
}

function estimateRun(cell, { bench, sources, hostCpus }) {
  for (const source of sources) {
    // The shipped figures name the folder of each cell and group; an earlier folder is its own source.
    const measured = source.cells?.[cell.cell];
    if (measured)
      return { ms: measured.ms, from: 'measured', source: measured.folder ?? source.dir, lowerBound: false };
    const group = source.groups?.[formatCalibrationKey(cell)];
    const modelled = predictRunMs(cell, group, hostCpus);
    if (modelled !== null)
      return { ms: modelled, from: 'model', source: group.folder ?? source.dir, lowerBound: false };
  }
  if (!bench) return { ms: null, from: null, source: null, lowerBound: true };
  const known = knownWorkloadMs(cell);
  return { ms: bench.overhead_ms + known.ms, from: 'benchmark', source: null, lowerBound: known.lowerBound };
}

// The capacity model's wall_ms for the cell from a calibration of the same work, and the time around it; null when
// the workload's model predicts no wall_ms (a server's rate) or the cell's CPUs are unknown.
function predictRunMs(cell, group, hostCpus) {
  if (!group) return null;
  const { wall_ms: wall } = predictCell(
    { workload: cell.workload, modelCell: toModelCell(cell, hostCpus) },
    group.calibration,
  );
  return Number.isFinite(wall) ? group.overhead_ms + wall : null;
}

/** What a run's workload is known to take from its parameters alone: a server's warm-up and measured seconds. */
export function knownWorkloadMs({ workload, params }) {
  if (!getWorkload(workload)?.serves) return { ms: 0, lowerBound: true };
  if (params.load === 'burst') return { ms: params.warmup * 1000, lowerBound: true };
  return { ms: (params.warmup + params.duration) * 1000, lowerBound: false };
}

function countByCell(runs) {
  const counts = new Map();
  for (const run of runs) counts.set(run.cell, (counts.get(run.cell) ?? 0) + 1);
  return counts;
}

/** "about 4 min", "12 s", "1 h 5 min": a duration as a plan says it. */
export function formatDuration(ms) {
  const seconds = Math.round(ms / 1000);
  if (seconds < 90) return `${Math.max(1, seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
