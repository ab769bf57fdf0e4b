// One family of ratio comparisons (a claim's combinations, or one step of an axis across the combinations of
// the other axes) → a verdict each. A verdict is the label of the region the whole 95% interval lies in;
// Holm's correction over the family keeps "at least one of these is X" honest when X is read off any of them.
import { adjustHolm, ALPHA, estimateRunsNeeded, pInside } from '../stats/ratio.js';

export const INCONCLUSIVE = 'inconclusive';

/**
 * @param {object[]} comparisons  compareRatio or compareSamples results (a compareSamples result brings its own
 *   pInside and runsNeeded, so the method it was made by decides)
 * @param {{ label: string, low: number, high: number }[]|{ label: string, low: number, high: number }[][]} regions  on
 *   the ratio scale (low ≥ 0, high ≤ Infinity), in order of preference when an interval lies in two (a change before
 *   "no change"); or one such list per comparison (`expect: model`: each pair of cells has its own model ratio; an
 *   empty list where there is none)
 * @returns {{ verdict: string, p: number, raw: string, runs_needed: number|null }[]}
 *   p = Holm-adjusted p of the verdict (for an inconclusive one: of the closest label); raw = what the interval
 *   alone would say (differs from verdict only when the correction changed it); runs_needed = for an inconclusive
 *   verdict, runs per cell that would probably decide it
 */
export function judgeFamily(comparisons, regions) {
  const perComparison = comparisons.map((_, index) => (Array.isArray(regions[0]) ? regions[index] : regions));
  const labels = [...new Set(perComparison.flat().map((region) => region.label))];
  const logRegionsOf = perComparison.map((list) =>
    list.map(({ label, low, high }) => ({ label, low: Math.log(low), high: Math.log(high) })),
  );
  const raw = comparisons.map((comparison, index) =>
    Object.fromEntries(labels.map((label) => [label, labelP(comparison, logRegionsOf[index], label)])),
  );
  const adjusted = Object.fromEntries(labels.map((label) => [label, adjustHolm(raw.map((ps) => ps[label]))]));
  return comparisons.map((comparison, index) => {
    const decided = labels.find((label) => adjusted[label][index] < ALPHA);
    if (labels.length === 0) return { verdict: INCONCLUSIVE, p: 1, raw: INCONCLUSIVE, runs_needed: null };
    const closest = labels.reduce((best, label) => (adjusted[label][index] < adjusted[best][index] ? label : best));
    const alone = labels.find((label) => raw[index][label] < ALPHA) ?? INCONCLUSIVE;
    return {
      verdict: decided ?? INCONCLUSIVE,
      p: adjusted[decided ?? closest][index],
      raw: alone,
      runs_needed: decided ? null : estimateRuns(comparison, logRegionsOf[index], comparisons.length),
    };
  });
}

function labelP(comparison, logRegions, label) {
  if (!comparison.log || !logRegions.some((region) => region.label === label)) return 1;
  const inside = comparison.pInside ?? ((low, high) => pInside(comparison.log, low, high));
  return Math.min(...logRegions.filter((region) => region.label === label).map(({ low, high }) => inside(low, high)));
}

/**
 * The interval shrinks around the estimate as runs are added; it settles the question once it fits inside the
 * region the estimate lies in (the widest such fit, when regions overlap). α / family size is Holm's strictest
 * step, so the count errs on the side of enough.
 */
function estimateRuns(comparison, logRegions, familySize) {
  if (!comparison.log) return null;
  const { estimate } = comparison.log;
  const room = Math.max(
    0,
    ...logRegions
      .filter(({ low, high }) => estimate > low && estimate < high)
      .map(({ low, high }) => Math.min(estimate - low, high - estimate)),
  );
  const atLeast = Math.max(comparison.n_a, comparison.n_b) + 1;
  const options = { alpha: ALPHA / familySize, atLeast };
  return comparison.runsNeeded
    ? comparison.runsNeeded(room, options)
    : estimateRunsNeeded(comparison.log, room, options);
}
