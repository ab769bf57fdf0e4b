// The noise of real runs, fitted for `npm run bench:stats`: per cell, the residual log(value / cell median) of the
// primary metric, pooled over cells with enough runs. Its shape is kept, not assumed: a core resampled from the
// residuals themselves and, apart from it, one-sided spikes (runs slowed while something else was busy) with
// their observed rate and sizes; and how often two cells' runs of the same round are slowed together.
import { medianAbsoluteDeviation } from 'simple-statistics';
import { median } from '../../runner/stats/statistics.js';
import { primaryMetrics } from '../../runner/domain/metrics.js';
import { LabError } from '../../runner/errors.js';
import { OUTLIER_THRESHOLD } from '../../runner/stats/statistics.js';

/** Cells with fewer runs give residuals pinned by their own median (at 3, one is always 0). */
export const MIN_RUNS_PER_CELL = 5;

/**
 * @param {{ dir: string, runs: object[] }[]} folders  readResults(...) of each folder
 * @returns {object} the fitted model: core residuals, spike rate and sizes, the round-wide shift, how often a
 *   slow period hits two cells of a round, and where they came from
 */
export function fitNoiseModel(folders) {
  const cells = folders.flatMap(collectCells);
  const fitted = cells.filter((cell) => cell.runs.length >= MIN_RUNS_PER_CELL);
  const runs = fitted.flatMap((cell) => cell.runs);
  if (runs.length === 0) {
    throw new LabError(
      'ERR_USAGE',
      `${folders.map(({ dir }) => dir).join(', ')}: no cell with ${MIN_RUNS_PER_CELL} or more runs of a workload measured by wall_ms`,
      {
        hint: `fit the noise to a folder with repetitions: ${MIN_RUNS_PER_CELL} or more (docs/statistics/noise.yml makes one)`,
      },
    );
  }
  // First the spikes of the raw residuals, so that a slow run does not pass for a slow round; then a round's
  // shift (the mean of its other runs), taken out where rounds differ by more than independent runs would.
  markSpikes(runs, OUTLIER_THRESHOLD * spreadOf(runs.map((run) => run.residual)), (run) => run.residual);
  const roundSd = removeRoundShifts(fitted);
  // The spread of the core: the normal-consistent MAD, which the spikes hardly move. A spike: slower than its
  // cell's median (and its round) by more than the project's outlier rule (modified z > 3.5).
  const coreSd = spreadOf(runs.map((run) => run.own));
  const threshold = OUTLIER_THRESHOLD * coreSd;
  markSpikes(runs, threshold, (run) => run.own);
  const spikes = runs.filter((run) => run.spike).map((run) => run.own);
  const core = runs.filter((run) => !run.spike).map((run) => run.own);
  return {
    sources: fitted.map((cell) => ({ dir: cell.dir, workload: cell.workload, runs: cell.runs.length })),
    skipped: cells.length - fitted.length,
    runs: runs.length,
    coreSd,
    threshold,
    core,
    spikeRate: spikes.length / runs.length,
    spikes,
    lowOutliers: core.filter((r) => r < -threshold).length,
    // The same spread for CPU time: steady work shows a small one however busy the host; a large one means the
    // work itself was disturbed (a CPU shared with a neighbour).
    cpuSd: spreadOf(fitted.flatMap((cell) => cell.cpuResiduals)),
    shared: { ...countSharedSpikes(fitted), roundSd },
    byWorkload: [...groupBy(fitted, (cell) => cell.workload)].map(([workload, group]) => {
      const own = group.flatMap((cell) => cell.runs.map((run) => run.own));
      return {
        workload,
        runs: own.length,
        coreSd: spreadOf(own),
        spikeRate: own.filter((r) => r > threshold).length / own.length,
      };
    }),
  };
}

function markSpikes(runs, threshold, valueOf) {
  for (const run of runs) run.spike = valueOf(run) > threshold;
}

/**
 * A round slower (or faster) for every cell: per folder and round, the mean residual of its runs that are not
 * spikes. Its spread beyond what independent runs give, σ²_round = var(round means) − mean(σ²_core / size), is
 * the round-wide shift; each run's own noise is its residual less its round's shift as predicted from the round's
 * mean, w · (mean − overall), w = σ²_round / (σ²_round + σ²_core / size): all of it where rounds differ much,
 * none where they differ no more than independent runs would. Sets run.own.
 * @returns {number} σ_round
 */
function removeRoundShifts(cells) {
  const rounds = [
    ...groupBy(
      cells.flatMap((cell) => cell.runs.map((run) => ({ run, key: `${cell.dir}\u0000${run.round}` }))),
      ({ key }) => key,
    ).values(),
  ]
    .map((members) => members.map(({ run }) => run))
    .map((runs) => ({ runs, steady: runs.filter((run) => !run.spike).map((run) => run.residual) }))
    .filter(({ steady }) => steady.length >= 2);
  const all = cells.flatMap((cell) => cell.runs);
  for (const run of all) run.own = run.residual;
  if (rounds.length < 2) return 0;
  const steady = all.filter((run) => !run.spike).map((run) => run.residual);
  const coreVariance = steady.reduce((sum, r) => sum + r * r, 0) / Math.max(1, steady.length - 1);
  const means = rounds.map(({ steady: values }) => values.reduce((sum, r) => sum + r, 0) / values.length);
  const center = means.reduce((sum, m) => sum + m, 0) / means.length;
  const observed = means.reduce((sum, m) => sum + (m - center) ** 2, 0) / (means.length - 1);
  const expected = rounds.reduce((sum, { steady: values }) => sum + coreVariance / values.length, 0) / rounds.length;
  const roundVariance = Math.max(0, observed - expected);
  // The round's shift as best predicted from its few runs (shrunk towards none by how noisy its mean is).
  rounds.forEach(({ runs, steady: values }, i) => {
    const weight = roundVariance / (roundVariance + coreVariance / values.length);
    for (const run of runs) run.own = run.residual - weight * (means[i] - center);
  });
  return Math.sqrt(roundVariance);
}

/**
 * Do two cells of one round get slowed together? Over every two cells of a folder and every round both ran: how
 * often both runs are spikes, against how often one is, and the shared rate that explains it.
 */
function countSharedSpikes(cells) {
  let pairs = 0;
  let both = 0;
  let either = 0;
  for (const group of groupBy(cells, (cell) => cell.dir).values()) {
    for (const runs of groupBy(
      group.flatMap((cell) => cell.runs),
      (run) => run.round,
    ).values()) {
      for (let i = 0; i < runs.length; i++)
        for (let j = i + 1; j < runs.length; j++) {
          pairs += 1;
          if (runs[i].spike && runs[j].spike) both += 1;
          if (runs[i].spike || runs[j].spike) either += 1;
        }
    }
  }
  const all = cells.flatMap((cell) => cell.runs);
  const spikeRate = all.filter((run) => run.spike).length / Math.max(1, all.length);
  const pBoth = pairs ? both / pairs : 0;
  return { pairs, both, either, pBoth, sharedRate: solveSharedRate(spikeRate, pBoth) };
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

// Per cell of a folder, the runs of a workload whose first primary metric is wall_ms, with their residuals.
function collectCells({ dir, runs }) {
  const measured = runs.filter(
    (run) =>
      run.status === 'ok' &&
      run.warmup !== true &&
      typeof run.wall_ms === 'number' &&
      run.wall_ms > 0 &&
      primaryMetrics(run.workload)[0].column === 'wall_ms',
  );
  return [...groupBy(measured, (run) => run.cell).values()].map((cellRuns) => {
    const center = median(cellRuns.map((run) => run.wall_ms));
    const cpu = cellRuns.map((run) => run.cpu_total_ms).filter((value) => typeof value === 'number' && value > 0);
    const cpuCenter = cpu.length ? median(cpu) : null;
    return {
      dir,
      workload: cellRuns[0].workload,
      runs: cellRuns.map((run) => ({ residual: Math.log(run.wall_ms / center), round: run.repetition, spike: false })),
      cpuResiduals: cpu.map((value) => Math.log(value / cpuCenter)),
    };
  });
}

function spreadOf(residuals) {
  return residuals.length ? 1.4826 * medianAbsoluteDeviation(residuals) : null;
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
