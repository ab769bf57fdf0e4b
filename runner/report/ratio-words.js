// One vocabulary for every sentence that reads a ratio with its 95% interval — the advice's default against the
// recommendation, a step along an axis, `compare`'s rows — so one word means one thing everywhere:
//   - a direction ("slower", "faster"; for a rate "lower", "higher") only where the interval excludes 1;
//   - "about the same" only where it lies inside the equivalence margin the question states (`recommend.within`,
//     a claim's band, compare's --threshold, a step's ±5%);
//   - otherwise "not distinguishable", with the ratio and its interval: "not distinguishable (ratio 1.00 [0.91,
//     1.10])".
// A claim's own verdicts (holds, refuted, inconclusive) say where its interval lies against what the claim expects;
// they use no direction word (report/verdict-words.js). The number in the words is the point estimate of the interval
// printed beside it (the comparison's own, docs/statistics.md).
import { formatRatio } from '../verdicts/format-ratio.js';

/** What an interval lets one say, in the order the words prefer: a direction first, then "same", else neither. */
export const READINGS = Object.freeze({
  worse: 'worse',
  better: 'better',
  same: 'same',
  undistinguished: 'undistinguished',
});

/**
 * @param {{ ci95_low?: number|null, ci95_high?: number|null }} interval  of a ratio "worse / better" (above 1: worse)
 * @param {number} margin  the equivalence margin as a share (0.05: inside [0.95, 1.05] is "the same")
 * @returns {'worse'|'better'|'same'|'undistinguished'}  without an interval: undistinguished
 */
export function readInterval({ ci95_low: low, ci95_high: high }, margin) {
  if (!(Number.isFinite(low) && Number.isFinite(high))) return READINGS.undistinguished;
  if (low > 1) return READINGS.worse;
  if (high < 1) return READINGS.better;
  if (low >= 1 - margin && high <= 1 + margin) return READINGS.same;
  return READINGS.undistinguished;
}

/** The direction word of a metric: a time is slower or faster, a rate (or any other metric) lower or higher. */
export function directionWord(worse, lowerIsBetter) {
  if (lowerIsBetter) return worse ? 'slower' : 'faster';
  return worse ? 'lower' : 'higher';
}

/** A reading as the short word a table cell shows: "slower", "about the same", "not distinguishable". */
export function formatReading(reading, { lowerIsBetter }) {
  if (reading === READINGS.worse || reading === READINGS.better)
    return directionWord(reading === READINGS.worse, lowerIsBetter);
  return reading === READINGS.same ? 'about the same' : 'not distinguishable';
}

/**
 * A ratio with its interval as words.
 * @param {{ ratio: number, ci95_low?: number|null, ci95_high?: number|null }} comparison  ratio > 1: the subject is
 *   worse than the reference (its time / the reference's, or the reference's rate / its rate)
 * @param {{ lowerIsBetter: boolean, than?: string, margin: number, reading?: string }} options  than: what the subject
 *   is compared with; margin: the question's equivalence margin (a share); reading: the verdict when a correction
 *   over a family decided it (a step's Holm), instead of the interval alone — it may only be weaker
 * @returns {string} e.g. "1.05× slower than X [1.02, 1.08]", "1.04× faster than X [1.01, 1.07]",
 *   "about the same as X (ratio 1.01 [0.98, 1.03], inside ±5%)", "not distinguishable from X (ratio 1.00
 *   [0.91, 1.10])"
 */
export function describeRatio(comparison, { lowerIsBetter, than = 'the reference', margin, reading }) {
  const { ratio, ci95_low: low, ci95_high: high } = comparison;
  if (!Number.isFinite(ratio)) return `not comparable with ${than} (no ratio)`;
  const hasInterval = Number.isFinite(low) && Number.isFinite(high);
  const read = weaker(readInterval(comparison, margin), reading);
  const plain = hasInterval ? `ratio ${formatPlain(ratio)} [${formatRatio(low)}, ${formatRatio(high)}]` : null;
  if (read === READINGS.same) return `about the same as ${than} (${plain}, inside ±${formatMargin(margin)})`;
  if (read === READINGS.undistinguished)
    return `not distinguishable from ${than} (${plain ?? `ratio ${formatPlain(ratio)}, no interval`})`;
  const worse = read === READINGS.worse;
  const [shown, from, to] = worse ? [ratio, low, high] : [1 / ratio, 1 / high, 1 / low];
  return `${formatApart(shown)}× ${directionWord(worse, lowerIsBetter)} than ${than} [${formatApart(from)}, ${formatApart(to)}]`;
}

/**
 * Three significant digits, or as many more as it takes not to print 1 for a value that is not 1: an interval that
 * excludes 1 narrowly must not read as one that touches it ("[1, 1.04]" for 1.0004).
 */
export function formatApart(value) {
  for (let digits = 3; digits < 8; digits++) {
    const text = String(Number(value.toPrecision(digits)));
    if (text !== '1' || value === 1) return text;
  }
  return String(value);
}

// A family's verdict may take a direction or "same" back (Holm), never add one the interval alone does not give.
function weaker(read, verdict) {
  if (verdict === undefined || verdict === read) return read;
  return READINGS.undistinguished;
}

// "1.00", "1.03": a ratio said plainly, with two decimals, as a reader compares it with 1 (far from 1: 3 digits).
function formatPlain(ratio) {
  return ratio >= 0.1 && ratio < 10 ? ratio.toFixed(2) : formatRatio(ratio);
}

function formatMargin(margin) {
  return `${Number((margin * 100).toPrecision(3))}%`;
}
