// The noise of real runs, fitted for `npm run bench:stats`: per cell, the residual log(value / cell median) of the
// primary metric, pooled over cells with enough runs. Its shape is kept, not assumed: a core resampled from the
// residuals themselves and, apart from it, one-sided spikes (runs slowed while something else was busy) with
// their observed rate and sizes; and how often two cells' runs of the same round are slowed together.
import { median, medianAbsoluteDeviation } from 'simple-statistics';
import { primaryMetrics } from '../../runner/domain/metrics.js';
import { OUTLIER_THRESHOLD } from '../../runner/stats/statistics.js';

/** Cells with fewer runs give residuals pinned by their own median (at 3, one is always 0). */
export const MIN_RUNS_PER_CELL = 5;

/**
 * @param {{ dir: string, runs: object[] }[]} folders  readResults(...) of each folder
 * @returns {object} the fitted model: core residuals, spike rate and sizes, the shared-round figures, and where
 *   they came from
 */
export function fitNoiseModel(folders) {
  const cells = folders.flatMap(collectCells);
  const fitted = cells.filter((cell) => cell.runs.length >= MIN_RUNS_PER_CELL);
  const residuals = fitted.flatMap((cell) => cell.runs.map((run) => run.residual));
  if (residuals.length === 0) throw new Error(`no cell with ${MIN_RUNS_PER_CELL} or more runs of a wall_ms workload in the folders given`);
  // The spread of the core: the normal-consistent MAD, which the spikes hardly move.
  const coreSd = 1.4826 * medianAbsoluteDeviation(residuals);
  // A spike: slower than its cell's median by more than the project's outlier rule (modified z > 3.5).
  const threshold = OUTLIER_THRESHOLD * coreSd;
  for (const cell of fitted) for (const run of cell.runs) run.spike = run.residual > threshold;
  const spikes = residuals.filter((r) => r > threshold);
  const core = residuals.filter((r) => r <= threshold);
  return {
    sources: fitted.map((cell) => ({ dir: cell.dir, workload: cell.workload, runs: cell.runs.length })),
    skipped: cells.length - fitted.length,
    runs: residuals.length,
    coreSd,
    threshold,
    core,
    spikeRate: spikes.length / residuals.length,
    spikes,
    lowOutliers: core.filter((r) => r < -threshold).length,
    shared: fitSharedRounds(fitted),
    byWorkload: [...groupBy(fitted, (cell) => cell.workload)].map(([workload, group]) => {
      const own = group.flatMap((cell) => cell.runs.map((run) => run.residual));
      return { workload, runs: own.length, coreSd: 1.4826 * medianAbsoluteDeviation(own), spikeRate: own.filter((r) => r > threshold).length / own.length };
    }),
  };
}

/**
 * Do two cells of one round get slowed together? Over every two cells of a folder and every round both ran:
 * how often both runs are spikes, against how often one is. Also the spread of a round's mean core residual
 * beyond what independent runs would give (a slow round for everyone).
 */
export function fitSharedRounds(cells) {
  const byFolder = groupBy(cells, (cell) => cell.dir);
  let pairs = 0;
  let both = 0;
  let either = 0;
  const roundMeans = [];
  for (const group of byFolder.values()) {
    const rounds = new Map();
    for (const cell of group) for (const run of cell.runs) {
      if (!rounds.has(run.round)) rounds.set(run.round, []);
      rounds.get(run.round).push(run);
    }
    for (const runs of rounds.values()) {
      for (let i = 0; i < runs.length; i++) for (let j = i + 1; j < runs.length; j++) {
        pairs += 1;
        if (runs[i].spike && runs[j].spike) both += 1;
        if (runs[i].spike || runs[j].spike) either += 1;
      }
      const cores = runs.filter((run) => !run.spike).map((run) => run.residual);
      if (cores.length >= 2) roundMeans.push({ mean: cores.reduce((s, r) => s + r, 0) / cores.length, size: cores.length });
    }
  }
  const spikeRate = cells.flatMap((cell) => cell.runs).filter((run) => run.spike).length / Math.max(1, cells.flatMap((cell) => cell.runs).length);
  const pBoth = pairs ? both / pairs : 0;
  return { pairs, both, either, pBoth, sharedRate: solveSharedRate(spikeRate, pBoth), roundSd: estimateRoundSd(cells, roundMeans) };
}

/**
 * p_s, the chance that a round has a slow period that hits both cells, from the spike rate p and the joint rate
 * P(both): each run is slowed by the round's slow period (p_s) or on its own (p_i), p = 1 − (1 − p_s)(1 − p_i),
 * P(both) = p_s + (1 − p_s) p_i². Bisection on [0, p]: P(both) grows with p_s at fixed p.
 */
export function solveSharedRate(p, pBoth) {
  const joint = (ps) => {
    const pi = 1 - (1 - p) / (1 - ps);
    return ps + (1 - ps) * pi * pi;
  };
  if (p <= 0 || pBoth <= joint(0)) return 0;
  if (pBoth >= joint(p)) return p;
  let [lo, hi] = [0, p];
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (joint(mid) < pBoth) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

// Variance of the round means = σ²_round + σ²_core / size; the excess over the second term, never below 0.
function estimateRoundSd(cells, roundMeans) {
  if (roundMeans.length < 2) return 0;
  const cores = cells.flatMap((cell) => cell.runs).filter((run) => !run.spike).map((run) => run.residual);
  const coreVariance = cores.reduce((s, r) => s + r * r, 0) / Math.max(1, cores.length - 1);
  const meanOfMeans = roundMeans.reduce((s, { mean }) => s + mean, 0) / roundMeans.length;
  const observed = roundMeans.reduce((s, { mean }) => s + (mean - meanOfMeans) ** 2, 0) / (roundMeans.length - 1);
  const expected = roundMeans.reduce((s, { size }) => s + coreVariance / size, 0) / roundMeans.length;
  return Math.sqrt(Math.max(0, observed - expected));
}

// Per cell of a folder, the runs of a workload whose first primary metric is wall_ms, with their residuals.
function collectCells({ dir, runs }) {
  const measured = runs.filter((run) => run.status === 'ok' && run.warmup !== true && typeof run.wall_ms === 'number' && run.wall_ms > 0
    && primaryMetrics(run.workload)[0].column === 'wall_ms');
  return [...groupBy(measured, (run) => run.cell).values()].map((cellRuns) => {
    const center = median(cellRuns.map((run) => run.wall_ms));
    return {
      dir,
      workload: cellRuns[0].workload,
      runs: cellRuns.map((run) => ({ residual: Math.log(run.wall_ms / center), round: run.repetition, spike: false })),
    };
  });
}

// Map.groupBy arrives in Node 21; the project runs on 20.
function groupBy(items, keyOf) {
  const groups = new Map();
  for (const item of items) {
    const key = keyOf(item);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(item);
  }
  return groups;
}
