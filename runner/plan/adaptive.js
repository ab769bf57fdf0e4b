// Adaptive repetitions: after the planned rounds, cells whose primary metric is still uncertain get
// more runs, one shuffled round at a time, until the 95% confidence interval of the mean is narrower
// than the target or the cell reaches max_repetitions.
import jstatModule from 'jstat';
import { shuffle } from 'simple-statistics';
import { toRunSpec } from './plan-runs.js';

const { jStat } = jstatModule;

/** The metric statistics and adaptive repetitions are about, per workload. */
export const PRIMARY_METRIC = { http: 'requests_per_sec' };
export const primaryMetric = (workload) => PRIMARY_METRIC[workload] ?? 'wall_ms';

/** Half-width of the 95% CI of the mean (t-distribution) as a percentage of the mean; Infinity below n = 2. */
export function ciHalfWidthPct(values) {
  if (values.length < 2) return Infinity;
  const mean = jStat.mean(values);
  const half = jStat.studentt.inv(0.975, values.length - 1) * (jStat.stdev(values, true) / Math.sqrt(values.length));
  return mean === 0 ? Infinity : (100 * half) / Math.abs(mean);
}

/**
 * The next round of extra runs, or [] when every cell is precise enough or at its cap.
 * @param {object} plan   one experiment's plan (cells, random, experiment.adaptive)
 * @param {object[]} rows every row of this experiment so far (this invocation and, on resume, before)
 */
export function planAdaptiveRound(plan, rows) {
  const { adaptive } = plan.experiment;
  if (!adaptive) return [];
  const needing = plan.cells.filter((cell) => {
    const own = rows.filter((row) => row.cell === cell.cell && !isTrue(row.warmup));
    const values = own.filter((row) => row.status === 'ok').map((row) => Number(row[primaryMetric(cell.workload)])).filter(Number.isFinite);
    // A cell that keeps failing would never get precise: stop once it has used its runs.
    return own.length < adaptive.max_repetitions && ciHalfWidthPct(values) > adaptive.target_ci_pct;
  });
  return shuffle(needing, plan.random).map((cell) => {
    const done = rows.filter((row) => row.cell === cell.cell && !isTrue(row.warmup)).map((row) => Number(row.repetition));
    return toRunSpec(plan.experiment, cell, Math.max(0, ...done) + 1, false);
  });
}

function isTrue(value) {
  return value === true || value === 'true';
}
