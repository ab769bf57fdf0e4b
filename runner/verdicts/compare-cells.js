// What `npm run compare` needs beyond the ratio: which cell of B goes with which of A (by id, or by every axis but
// one with --match-on), and the verdict of a change with an optional regression threshold.
import { LabError } from '../errors.js';
import { ALPHA, adjustHolm, pInside } from '../stats/ratio.js';

/** Half-width of the "same" band when no --threshold is given. */
export const DEFAULT_THRESHOLD = 0.05;

/**
 * @param {object[]} cellsA  summary cells ({ cell, values })
 * @param {object[]} cellsB
 * @param {{ matchOn?: string, paramsOf?: (side: 'a'|'b', cell: string) => unknown }} [options]
 *   matchOn: pair cells whose values are equal on every axis but this one (their ids differ)
 * @returns {{ pairs: Array<{a: object, b: object}>, onlyA: object[], onlyB: object[] }}
 */
export function pairCells(cellsA, cellsB, { matchOn, paramsOf = () => null } = {}) {
  const keyOf = (side) => (cell) => {
    if (!matchOn) return cell.cell;
    const values = Object.entries(cell.values)
      .filter(([axis, value]) => axis !== matchOn && value !== undefined && value !== null)
      .map(([axis, value]) => [axis, String(value)])
      .sort(([x], [y]) => x.localeCompare(y));
    return JSON.stringify([values, paramsOf(side, cell.cell)]);
  };
  const byKeyB = new Map();
  for (const cell of cellsB) {
    const key = keyOf('b')(cell);
    if (byKeyB.has(key)) throw ambiguous(matchOn, 'B', byKeyB.get(key), cell);
    byKeyB.set(key, cell);
  }
  const seenA = new Map();
  const pairs = [];
  for (const cell of cellsA) {
    const key = keyOf('a')(cell);
    if (seenA.has(key)) throw ambiguous(matchOn, 'A', seenA.get(key), cell);
    seenA.set(key, cell);
    if (byKeyB.has(key)) pairs.push({ a: cell, b: byKeyB.get(key) });
  }
  return {
    pairs,
    onlyA: cellsA.filter((cell) => !byKeyB.has(keyOf('a')(cell))),
    onlyB: cellsB.filter((cell) => !seenA.has(keyOf('b')(cell))),
  };
}

function ambiguous(matchOn, side, first, second) {
  return new LabError(
    'ERR_USAGE',
    `with --match-on ${matchOn}, cells ${first.cell} and ${second.cell} of ${side} differ only in ${matchOn}, so neither pairs unambiguously`,
    {
      hint: `compare folders that hold one value of ${matchOn} each, or leave out --match-on`,
    },
  );
}

/**
 * better / worse only when the 95% interval of B / A excludes 1; same only when it lies inside ±threshold;
 * otherwise inconclusive — never "same" because a test was not significant. `p_regression`: the p-value of "worse
 * by more than the threshold" (below 0.05 exactly when the whole interval lies beyond it); the gate takes it
 * Holm-corrected across its comparisons (judgeGate).
 * @param {object} comparison  compareUnpaired(a, b) (verdicts/compare-pair.js)
 * @param {'lower'|'higher'} better
 */
export function judgeChange(comparison, better, threshold = DEFAULT_THRESHOLD) {
  const { ci95_low: low, ci95_high: high, log } = comparison;
  if (!log) return { verdict: 'inconclusive', p: null, p_regression: 1 };
  // The method's own test where it brings one (compareSamples), Welch's on the logs otherwise.
  const inside = comparison.pInside ?? ((lo, hi) => pInside(log, lo, hi));
  const p = Math.min(inside(-Infinity, 0), inside(0, Infinity));
  const lowerIsBetter = better !== 'higher';
  let verdict = 'inconclusive';
  if (p < ALPHA) verdict = comparison.ratio < 1 === lowerIsBetter ? 'better' : 'worse';
  else if (low >= 1 - threshold && high <= 1 + threshold) verdict = 'same';
  const worse = lowerIsBetter ? [Math.log(1 + threshold), Infinity] : [-Infinity, Math.log(1 - threshold)];
  return { verdict, p, p_regression: inside(...worse) };
}

/**
 * The gate over every comparison at once: Holm's correction of the regression p-values, so the chance that a
 * folder with no real regression fails the gate stays at 5% however many cells and metrics it compares.
 * @param {number[]} pRegression  judgeChange(...).p_regression of each comparison
 * @returns {{ p_holm: number, regression: boolean }[]}
 */
export function judgeGate(pRegression) {
  return adjustHolm(pRegression).map((p) => ({ p_holm: p, regression: p < ALPHA }));
}

/**
 * "5%", "5" (a number is a percentage) or "0.5%" → the fraction; anything else is a usage error. A number below 1
 * needs its % sign: "0.05" is 5% to some and 0.05% to others.
 */
export function parseThreshold(text) {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(String(text ?? ''));
  const percent = match ? Number(match[1]) : NaN;
  if (match && !match[2] && percent > 0 && percent < 1) {
    const asFraction = Number((percent * 100).toPrecision(12));
    throw new LabError('ERR_USAGE', `--threshold ${text} is ambiguous: ${percent}% or ${asFraction}%?`, {
      hint: `the threshold is a percentage: write --threshold ${asFraction}% for ${asFraction}%, or --threshold ${percent}% if you mean ${percent}%`,
    });
  }
  if (!(percent > 0 && percent < 100)) {
    throw new LabError('ERR_USAGE', `--threshold takes a percentage between 0 and 100, found ${JSON.stringify(text)}`, {
      hint: 'write e.g. --threshold 5 or --threshold 5%',
    });
  }
  return percent / 100;
}
