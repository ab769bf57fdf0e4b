// The scheduler, in hyperfine's shape: a matrix is a sequence of rounds, and what the next round holds is decided
// from the rows so far — so a resumed folder continues exactly where it stopped. First the planned rounds (every cell
// `repetitions` times, interleaved and shuffled: plan/plan-runs.js), then re-runs of disturbed runs (reruns.js), then
// one more round at a time for the questions still open (adaptive.js: claims undecided, intervals too wide, a
// race's budgets not settled; capacity.js: with `slo:`, the rates still bracketing a cell's capacity).
// run/run-matrix.js dispatches each round; nothing here starts a run.
import { formatRunKey } from '../plan/plan-runs.js';

/**
 * @param {object} plan   one experiment's plan
 * @param {object[]} rows every row of this experiment so far (this invocation and, on resume, before), typed
 * @param {{ done?: Set<string> }} [options]  run keys made before without their rows at hand (resume)
 * @returns {Promise<{ kind: 'planned'|'rerun'|'adaptive'|'capacity', runs: object[] }|null>}  null: the matrix is
 *   done
 */
export async function planNextRound(plan, rows, { done = new Set() } = {}) {
  const made = new Set([...done, ...rows.map((row) => formatRunKey(row))]);
  const planned = plan.runs.filter((run) => !made.has(run.runKey));
  if (planned.length > 0) return { kind: 'planned', runs: planned };
  // Loaded once the planned runs are done: their statistics modules are not on the way to the first container.
  const [{ planRerunRound }, { planAdaptiveRound }, { planCapacityRound }] = await Promise.all([
    import('./reruns.js'),
    import('./adaptive.js'),
    import('./capacity.js'),
  ]);
  // Re-runs first: an adaptive round judges the cells on the runs that count.
  const reruns = planRerunRound(plan, rows);
  if (reruns.length > 0) return { kind: 'rerun', runs: reruns };
  const extra = plan.experiment.slo ? planCapacityRound(plan, rows) : planAdaptiveRound(plan, rows);
  return extra.length > 0 ? { kind: plan.experiment.slo ? 'capacity' : 'adaptive', runs: extra } : null;
}
