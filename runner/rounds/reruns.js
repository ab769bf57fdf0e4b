// Disturbed runs are re-run, never dropped: a run marked `disturbed` (the rest of the host took more of its CPU
// than `disturbed_above` allows; domain/interference.js) stays in runs.csv, out of the statistics, and its cell gets
// one run in its place — at most `max_reruns` a cell in all. Every re-run names the run it replaces (`rerun_of`), so
// the rows alone say what is still owed: a --resume continues exactly and never passes the bound.
import { shuffle } from 'simple-statistics';
import { toRunSpec } from '../plan/plan-runs.js';
import { nextRound } from './next-round.js';

/**
 * The next round of re-runs: each cell that is owed one gets one (for its earliest disturbed run not yet replaced),
 * in shuffled order, as a planned round holds every cell once; [] when none is owed (or --keep-disturbed: disturbed
 * runs then count, so nothing needs replacing).
 * @param {object} plan   one experiment's plan (cells, random, experiment.max_reruns, keepDisturbed)
 * @param {object[]} rows every row of this experiment so far (this invocation and, on resume, before), typed
 */
export function planRerunRound(plan, rows) {
  const maxReruns = plan.experiment.max_reruns ?? 0;
  if (plan.keepDisturbed || maxReruns === 0) return [];
  const round = nextRound(rows);
  const reruns = plan.cells.flatMap((cell) => {
    const own = rows.filter((row) => row.cell === cell.cell && row.warmup !== true);
    const replaced = own.filter((row) => Number.isFinite(row.rerun_of));
    const owed = own.filter((row) => isOwedRerun(row) && !replaced.some((rerun) => rerun.rerun_of === row.repetition));
    if (owed.length === 0 || replaced.length >= maxReruns) return [];
    const earliest = owed.reduce((first, row) => (row.repetition < first.repetition ? row : first));
    // A capacity search's run replaced at the rate it ran (arrival_rate), so the search's rates stay its own.
    const rate = plan.experiment.slo && Number.isFinite(earliest.arrival_rate) ? earliest.arrival_rate : undefined;
    return [toRunSpec(plan.experiment, cell, round, false, { rerunOf: earliest.repetition, arrivalRate: rate })];
  });
  return shuffle(reruns, plan.random);
}

/** The most runs re-runs may add to a plan: what `--plan` says besides the planned runs. */
export function countMostReruns(plan) {
  return plan.keepDisturbed ? 0 : (plan.experiment.max_reruns ?? 0) * plan.cells.length;
}

// A failed run is a failure to report, not noise to measure again; a warm-up is not measured at all. A run whose
// open-loop load generator fell behind its schedule is not counted either (domain/interference.js): one in its place.
function isOwedRerun(row) {
  return (row.disturbed === true || row.loader_behind === true) && row.status === 'ok';
}
