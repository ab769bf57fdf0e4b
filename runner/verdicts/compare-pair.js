// Two cells of a folder, or two samples from two folders, compared on one metric by the methods of
// docs/statistics.md (runner/stats/compare-samples.js): claims, steps, the advice's default, adaptive rounds and
// `compare` all come here, so the method changes in one place. Within a folder, two cells that ran in the same rounds
// are compared on those rounds, paired (BLOCKED_COMPARISON: runs.csv `repetition` is the round, and a slow period hits
// both sides of it); otherwise, and across folders, the unpaired DEFAULT_COMPARISON. verdicts.csv's `method` says
// which.
import {
  BLOCKED_COMPARISON,
  BLOCKED_MIN_ROUNDS,
  compareSamples,
  DEFAULT_COMPARISON,
} from '../stats/compare-samples.js';
import { roundsOf, sampleOf } from '../cells/cell.js';

/** B / A of `column` between two cells of one folder. */
export function compareCells(a, b, column) {
  const rounds = { a: roundsOf(a, column), b: roundsOf(b, column) };
  const common = new Set(rounds.a.filter((round) => rounds.b.includes(round)));
  const method = common.size >= BLOCKED_MIN_ROUNDS ? BLOCKED_COMPARISON : { ...DEFAULT_COMPARISON, paired: false };
  return withAliases(compareSamples(sampleOf(a, column), sampleOf(b, column), { ...method, rounds }));
}

/** B / A of two samples with no common rounds (two folders, two experiments). */
export function compareUnpaired(a, b) {
  return withAliases(compareSamples(a, b, { ...DEFAULT_COMPARISON, paired: false }));
}

// The interval under the names verdicts.csv, the words and the reports read (ci95_*: a 95% interval, or the level
// `confidence` says where the runs cannot reach 95%).
function withAliases(result) {
  return { ...result, ci95_low: result.ci_low, ci95_high: result.ci_high };
}
