// Student's t on the logarithms: Welch's two-sample interval (what compareRatio has always used) and, paired by
// round, the one-sample interval of the per-round differences log b − log a.
import { mean, sampleVariance } from 'simple-statistics';
import { buildTInterval, quantileT } from './t-interval.js';

/** Welch's t on x = log a, y = log b: the difference of mean logs (the log of the ratio of geometric means). */
export function estimateWelch(x, y, alpha) {
  const va = sampleVariance(x) / x.length;
  const vb = sampleVariance(y) / y.length;
  const se = Math.sqrt(va + vb);
  const df = se === 0 ? null : (va + vb) ** 2 / (va ** 2 / (x.length - 1) + vb ** 2 / (y.length - 1));
  const [sa2, sb2] = [sampleVariance(x), sampleVariance(y)];
  const predict = (n, level) => {
    const spread = sa2 + sb2;
    if (spread === 0) return 0;
    return quantileT(level, (spread ** 2 * (n - 1)) / (sa2 ** 2 + sb2 ** 2)) * Math.sqrt(spread / n);
  };
  return { ...buildTInterval({ estimate: mean(y) - mean(x), se, df }, alpha, predict), se, df };
}

/** One-sample t on the per-round differences d = log b − log a. */
export function estimatePairedT(d, alpha) {
  const sd = Math.sqrt(sampleVariance(d));
  const se = sd / Math.sqrt(d.length);
  const df = se === 0 ? null : d.length - 1;
  const predict = (n, level) => (sd === 0 ? 0 : quantileT(level, n - 1) * (sd / Math.sqrt(n)));
  return { ...buildTInterval({ estimate: mean(d), se, df }, alpha, predict), se, df };
}
