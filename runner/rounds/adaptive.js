// Adaptive repetitions: after the planned rounds, cells whose primary metric is still uncertain get
// more runs, one shuffled round at a time, until the 95% confidence interval of the mean is narrower
// than the target (and, with `claims: true`, every claim covering the cell is decided; with `search: race`,
// the advice of the cell's budget is settled and the cell is still in the race: rounds/race.js) or the cell
// reaches max_repetitions. Racing and adaptive repetitions are one mechanism: a round is every cell that
// still has a question open.
import { shuffle } from 'simple-statistics';
import { isMeasured } from '../domain/interference.js';
import { primaryMetrics } from '../domain/metrics.js';
import { summarizeSample } from '../stats/statistics.js';
import { toRunSpec } from '../plan/plan-runs.js';
import { findUndecidedClaimCells } from '../verdicts/undecided.js';
import { replayRace } from './race.js';
import { nextRound } from './next-round.js';

/** Half-width of the 95% CI of the mean as a percentage of the mean; Infinity while it is unknown (n < 2). */
export function ciHalfWidthPct(values) {
  const { ci95_relative: relative } = summarizeSample(values);
  return relative === null ? Infinity : 100 * relative;
}

/**
 * The next round of extra runs, or [] when every cell is precise enough or at its cap.
 * @param {object} plan   one experiment's plan (cells, random, experiment.adaptive)
 * @param {object[]} rows every row of this experiment so far (this invocation and, on resume, before)
 */
export function planAdaptiveRound(plan, rows) {
  // rows are typed (toRows, or runs.csv read back by results/read-results.js): numbers, warmup a boolean.
  const { adaptive } = plan.experiment;
  if (!adaptive) return [];
  const undecided = adaptive.claims ? findUndecidedClaimCells(plan, rows) : new Set();
  const racing = plan.experiment.search === 'race' ? replayRace(plan, rows).open : new Set();
  const { keepDisturbed } = plan;
  const needing = plan.cells.filter((cell) => {
    // Every round's run counts toward the cap, disturbed or not, so no state of the host can pass the plan's "up to";
    // a re-run made in place of a disturbed run is bounded apart (rounds/reruns.js, max_reruns).
    const own = rows.filter((row) => row.cell === cell.cell && row.warmup !== true && !Number.isFinite(row.rerun_of));
    // Every primary metric must be precise enough (http has two: throughput and p99 latency).
    const samples = primaryMetrics(cell.workload).map(({ column }) =>
      own.filter((row) => isMeasured(row, { keepDisturbed })).map((row) => row[column]),
    );
    // A cell that keeps failing would never get precise: stop once it has used its runs.
    const imprecise =
      adaptive.target_ci_pct !== undefined && samples.some((values) => ciHalfWidthPct(values) > adaptive.target_ci_pct);
    return own.length < adaptive.max_repetitions && (imprecise || undecided.has(cell.cell) || racing.has(cell.cell));
  });
  // One round, one number: every cell of it gets the experiment's next round as its repetition, so the runs that
  // ran side by side in time share a round label, which is what the comparisons pair by (a cell that sat a round out
  // skips its number).
  const round = nextRound(rows);
  return shuffle(needing, plan.random).map((cell) => toRunSpec(plan.experiment, cell, round, false));
}
