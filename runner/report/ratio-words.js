// How a ratio "worse / better" reads as words, so that the direction word never contradicts the number: above 1 the
// first is slower (a time) or lower (a rate); below 1 it is faster or higher, said with the inverted ratio; and where
// the ratio prints as 1 at three significant digits it is "about the same" — never "1× slower" (the interval beside it
// says how far it could be from the same). The number in the words is
// the point estimate of the interval printed beside it (the comparison's own, docs/statistics.md).
import { formatRatio } from '../verdicts/format-ratio.js';

/**
 * @param {{ ratio: number, ci95_low?: number|null, ci95_high?: number|null }} comparison  ratio > 1: the subject is
 *   worse than the reference (its time / the reference's, or the reference's rate / its rate)
 * @param {{ lowerIsBetter: boolean, than?: string }} options  than: what the subject is compared with
 * @returns {string} e.g. "1.05× slower than the recommendation [1.02, 1.08]", "1.04× faster than …",
 *   "about the same as … (ratio 1.00 [0.99, 1.01])"
 */
export function describeRatio(comparison, { lowerIsBetter, than = 'the reference' }) {
  const { ratio, ci95_low: low, ci95_high: high } = comparison;
  if (!Number.isFinite(ratio)) return `not comparable with ${than} (no ratio)`;
  const hasInterval = Number.isFinite(low) && Number.isFinite(high);
  const worse = ratio > 1;
  const shown = worse ? ratio : 1 / ratio;
  // Said as the number it prints: 0.997 is "1.003× faster" by arithmetic, and "1× faster" in print — the same.
  if (formatRatio(shown) === '1') {
    const interval = hasInterval ? ` [${formatRatio(low)}, ${formatRatio(high)}]` : '';
    return `about the same as ${than} (ratio 1.00${interval})`;
  }
  const [from, to] = worse ? [low, high] : [1 / high, 1 / low];
  const interval = hasInterval ? ` [${formatRatio(from)}, ${formatRatio(to)}]` : '';
  const word = lowerIsBetter ? (worse ? 'slower' : 'faster') : worse ? 'lower' : 'higher';
  return `${formatRatio(shown)}× ${word} than ${than}${interval}`;
}
