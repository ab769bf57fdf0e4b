// `slo:` (the capacity search): after the first round, each round runs every cell whose bracket is still open once,
// at the rate runner/verdicts/capacity.js chooses from the cell's runs so far; one round, one repetition number, so
// the runs of a round ran side by side in time. The decision is a pure function of the rows: a resumed folder asks
// for the same rates again.
import { shuffle } from 'simple-statistics';
import { isMeasured } from '../domain/interference.js';
import { toRunSpec } from '../plan/plan-runs.js';
import { judgeCapacity } from '../verdicts/capacity.js';
import { nextRound } from './next-round.js';

/**
 * The next round of the capacity search, or [] when every cell's bracket is settled, at its cap, or can narrow no more.
 * @param {object} plan   one experiment's plan (cells, random, experiment: { slo, adaptive }, keepDisturbed)
 * @param {object[]} rows every row of this experiment so far, typed
 */
export function planCapacityRound(plan, rows) {
  const unfinished = finishRound(plan, rows);
  if (unfinished.length > 0) return unfinished;
  const judged = judgeCapacityCells(plan, rows);
  const round = nextRound(rows);
  const runs = plan.cells.flatMap((cell) => {
    const { next } = judged.get(cell.cell);
    return next === null ? [] : [toRunSpec(plan.experiment, cell, round, false, { arrivalRate: next })];
  });
  return shuffle(runs, plan.random);
}

/**
 * A round cut short (Ctrl-C, a lost engine) is finished first, as it was decided: the cells it had not run yet, at the
 * rates chosen from the rows before it. A cell's rate depends on the others' runs too (their spread pools), so deciding
 * again from the rows of half a round would ask for other rates than an unbroken search did.
 */
function finishRound(plan, rows) {
  const measured = rows.filter((row) => row.warmup !== true);
  const last = Math.max(0, ...measured.map((row) => Number(row.repetition)));
  const atLast = measured.filter((row) => Number(row.repetition) === last);
  // The planned rounds are the plan's to finish, a round of re-runs has no rates of its own to choose.
  if (last <= plan.experiment.repetitions || atLast.some((row) => Number.isFinite(row.rerun_of))) return [];
  const before = judgeCapacityCells(
    plan,
    rows.filter((row) => Number(row.repetition) < last),
  );
  const ran = new Set(atLast.map((row) => row.cell));
  return plan.cells
    .filter((cell) => !ran.has(cell.cell) && before.get(cell.cell).next !== null)
    .map((cell) => toRunSpec(plan.experiment, cell, last, false, { arrivalRate: before.get(cell.cell).next }));
}

/**
 * Every cell's bracket, its spread pooled with the other cells' (one server, one host: their runs scatter alike).
 * @returns {Map<string, import('../verdicts/capacity.js').CapacityJudgement>}  by cell id
 */
export function judgeCapacityCells(plan, rows) {
  const { slo, adaptive } = plan.experiment;
  const runsOf = new Map(plan.cells.map((cell) => [cell.cell, toCapacityRuns(plan, cell, rows)]));
  return new Map(
    plan.cells.map((cell) => {
      const others = plan.cells.filter((other) => other !== cell).map((other) => runsOf.get(other.cell));
      const options = {
        sloMs: slo.p99_ms,
        resolution: slo.resolution,
        startRate: cell.params.open.rate,
        // Every run of a round counts toward the cap, counted or not, so no state of the host passes it.
        cap: adaptive?.max_repetitions,
      };
      const judgement = judgeCapacity(runsOf.get(cell.cell), options, others);
      const made = rows.filter((row) => isOwnRound(row, cell)).length;
      return [cell.cell, made >= options.cap ? { ...judgement, next: null, stop: 'cap' } : judgement];
    }),
  );
}

// A cell's runs of its own rounds (warm-ups and re-runs aside): what the cap counts.
function isOwnRound(row, cell) {
  return row.cell === cell.cell && row.warmup !== true && !Number.isFinite(row.rerun_of);
}

/**
 * The runs the bracket rests on: those that count (domain/interference.js isMeasured). Two more kinds are points over
 * the SLO that no interval rests on, so that the search turns down from their rate instead of asking for it again: a
 * run whose load generator waited for a connection (every one held by the server: the rate is beyond it), and a run
 * that failed or timed out at its rate (a server that cannot finish at a rate does not serve it within any SLO).
 */
function toCapacityRuns(plan, cell, rows) {
  return rows
    .filter((row) => row.cell === cell.cell && row.warmup !== true && Number.isFinite(row.arrival_rate))
    .flatMap((row) => {
      if (isMeasured(row, { keepDisturbed: plan.keepDisturbed }) && Number.isFinite(row.latency_p99_ms))
        return [{ rate: row.arrival_rate, p99: row.latency_p99_ms }];
      const heldByServer = row.status === 'ok' && row.loader_queued > 0 && Number.isFinite(row.latency_p99_ms);
      if (heldByServer) return [{ rate: row.arrival_rate, p99: row.latency_p99_ms, counted: false }];
      const broke = row.status === 'failed' || row.status === 'timeout' || row.status === 'oom';
      return broke ? [{ rate: row.arrival_rate, p99: Infinity, counted: false }] : [];
    });
}
