// What every two-sample method starts from: the logarithms of the values (a ratio B / A is a difference of logs),
// and, for a paired method, the differences log b − log a of runs made in the same round.
import { medianAbsoluteDeviation, sampleStandardDeviation } from 'simple-statistics';
import { MAX_RUNS_NEEDED } from './ratio.js';

/** Normal-consistent MAD: 1.4826 · MAD estimates σ for normal data. */
const MAD_TO_SD = 1.4826;

/**
 * @param {Array<number|null|undefined>} a
 * @param {Array<number|null|undefined>} b
 * @param {{ paired?: boolean, rounds?: { a: unknown[], b: unknown[] } }} [options]
 *   rounds: the round (repetition) of each value of a and b, in the same order; runs of the same round are
 *   paired (a round with two runs on side a pairs the later one), a round one side lacks is left out. Without it
 *   the i-th value of a is paired with the i-th of b.
 * @returns {{ x: number[], y: number[], pairs: { x: number[], y: number[], d: number[] }|null, reason: string|null }}
 *   x, y = logs of the finite values; pairs (paired only) = the logs of the rounds both sides have, in step, and
 *   d = their differences log b − log a
 */
export function toLogSamples(a, b, { paired = false, rounds } = {}) {
  const keep = (values) => values.flatMap((value, index) => (isFiniteNumber(value) ? [{ value, index }] : []));
  const kept = { a: keep(a), b: keep(b) };
  if ([...kept.a, ...kept.b].some(({ value }) => value <= 0)) {
    return { x: [], y: [], pairs: null, reason: 'a value ≤ 0 has no logarithm, so no ratio interval' };
  }
  const x = kept.a.map(({ value }) => Math.log(value));
  const y = kept.b.map(({ value }) => Math.log(value));
  if (!paired) return { x, y, pairs: null, reason: null };
  const roundOf = (side, index) => String(rounds ? rounds[side][index] : index);
  const byRound = new Map(kept.a.map(({ value, index }) => [roundOf('a', index), Math.log(value)]));
  const pairs = { x: [], y: [], d: [] };
  for (const { value, index } of kept.b) {
    const key = roundOf('b', index);
    if (!byRound.has(key)) continue;
    pairs.x.push(byRound.get(key));
    pairs.y.push(Math.log(value));
    pairs.d.push(Math.log(value) - byRound.get(key));
  }
  return { x, y, pairs, reason: null };
}

/**
 * A spread of logs that one slow run does not inflate: the normal-consistent MAD, or the standard deviation
 * where more than half the values are equal (MAD 0). What runs-needed estimates scale by.
 */
export function estimateRobustSd(values) {
  if (values.length < 2) return NaN;
  const mad = MAD_TO_SD * medianAbsoluteDeviation(values);
  return mad > 0 ? mad : sampleStandardDeviation(values);
}

/**
 * The fewest runs per cell, from `atLeast` up to MAX_RUNS_NEEDED, for which `isEnough(n)` holds; null when none.
 */
export function findRunsNeeded(isEnough, atLeast = 2) {
  for (let n = Math.max(2, atLeast); n <= MAX_RUNS_NEEDED; n++) if (isEnough(n)) return n;
  return null;
}

function isFiniteNumber(value) {
  return typeof value === 'number' && Number.isFinite(value);
}

/** How many of the ascending values are ≤ value (binary search). */
export function countAtMost(sorted, value) {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many of the ascending values are < value (binary search). */
export function countBelow(sorted, value) {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
