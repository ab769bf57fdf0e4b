// How long a plan will take, before it runs. A cell measured in an earlier folder of the same experiment takes what
// its runs took there (the median, container start to removal: runs.csv's started_at → finished_at). Any other cell
// takes the runner's benchmarked overhead per run (bench-figures.json, written by `npm run bench -- --docs` with
// docs/bench.md) plus the time its workload is known to take (http: warm-up + measured seconds); for the rest the
// workload's own time is not known before it has run once, and the estimate is a lower bound that says so.
import { readFileSync } from 'node:fs';
import { getWorkload } from '../domain/workloads.js';

const FIGURES_URL = new URL('./bench-figures.json', import.meta.url);

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
 * @param {{ dir: string, perCell: Map<string, { ms: number, n: number }> }|null} options.previous  an earlier folder's run times
 * @param {number} [options.lanes]  runs at once (engines × slots)
 * @returns {{ perCell: Map<string, { ms: number|null, from: 'measured'|'benchmark'|null, lowerBound: boolean }>,
 *   planned_ms: number|null, extra_ms: number|null, lower_bound: boolean, measured_cells: number, lanes: number }}
 */
export function estimatePlan(plan, { pending, extra, bench, previous, lanes = 1 }) {
  const perCell = new Map(plan.cells.map((cell) => [cell.cell, estimateRun(cell, { bench, previous })]));
  const unknown = [...perCell.values()].some((estimate) => estimate.ms === null);
  const sumOver = (counts) => [...counts].reduce((sum, [cell, count]) => sum + count * (perCell.get(cell)?.ms ?? 0), 0);
  const plannedCounts = countByCell(pending);
  const planned = unknown ? null : sumOver(plannedCounts) / lanes + (pending.length > 0 ? (bench?.startup_ms ?? 0) : 0);
  return {
    perCell,
    planned_ms: planned,
    extra_ms: unknown ? null : sumOver(extra) / lanes,
    lower_bound: [...plannedCounts.keys()].some((cell) => perCell.get(cell).lowerBound),
    measured_cells: [...perCell.values()].filter((estimate) => estimate.from === 'measured').length,
    lanes,
  };
}

function estimateRun(cell, { bench, previous }) {
  const measured = previous?.perCell.get(cell.cell);
  if (measured) return { ms: measured.ms, from: 'measured', lowerBound: false };
  if (!bench) return { ms: null, from: null, lowerBound: true };
  const known = knownWorkloadMs(cell);
  return { ms: bench.overhead_ms + known.ms, from: 'benchmark', lowerBound: known.lowerBound };
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
