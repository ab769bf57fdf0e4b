// Two cells of a folder, or two samples from two folders, compared on one metric by the method of
// docs/statistics.md (runner/stats/compare-samples.js DEFAULT_COMPARISON): claims, steps, advice, the race, adaptive
// rounds and `compare` all come here, so the method changes in one place. Within a folder a paired method pairs the
// runs by round (runs.csv `repetition`: a round runs every cell once, in shuffled order, so a slow period hits both
// sides); across folders there are no common rounds and the same method runs unpaired.
import { compareSamples, DEFAULT_COMPARISON } from '../stats/compare-samples.js';
import { roundsOf, sampleOf } from '../domain/cells.js';

/** B / A of `column` between two cells of one folder. */
export function compareCells(a, b, column) {
  return withAliases(
    compareSamples(sampleOf(a, column), sampleOf(b, column), {
      ...DEFAULT_COMPARISON,
      rounds: { a: roundsOf(a, column), b: roundsOf(b, column) },
    }),
  );
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
