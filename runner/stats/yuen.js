// Yuen's trimmed means on the logarithms: the 20% slowest and 20% fastest runs of each side are left out of the
// estimate and counted at the edge of the rest for the spread (winsorized), so one slow run moves neither much.
// From 5 runs a side one run each way is trimmed; at 3 or 4 none is, and it is Welch's t. SciPy:
// scipy.stats.ttest_ind(y, x, equal_var=False, trim=0.2). Paired: the same on the per-round differences.
import { mean, sampleVariance } from 'simple-statistics';
import { buildTInterval, quantileT } from './t-interval.js';

/** Share trimmed from each end (Wilcox's usual 20%). */
export const TRIM = 0.2;

/** Yuen–Welch on x = log a, y = log b. */
export function estimateYuen(x, y, alpha) {
  const [sideA, sideB] = [describeTrimmed(x), describeTrimmed(y)];
  const se = Math.sqrt(sideA.d + sideB.d);
  const df = se === 0 ? null : (sideA.d + sideB.d) ** 2 / (sideA.d ** 2 / (sideA.h - 1) + sideB.d ** 2 / (sideB.h - 1));
  const predict = (n, level) => {
    const [da, db] = [predictD(sideA.winsorizedVariance, n), predictD(sideB.winsorizedVariance, n)];
    if (da + db === 0) return 0;
    const h = n - 2 * Math.floor(TRIM * n);
    return quantileT(level, (da + db) ** 2 / ((da ** 2 + db ** 2) / (h - 1))) * Math.sqrt(da + db);
  };
  return { ...buildTInterval({ estimate: sideB.trimmedMean - sideA.trimmedMean, se, df }, alpha, predict), se, df };
}

/** One-sample Yuen on the per-round differences d = log b − log a: their trimmed mean, df = h − 1. */
export function estimatePairedYuen(d, alpha) {
  const side = describeTrimmed(d);
  const se = Math.sqrt(side.d);
  const df = se === 0 ? null : side.h - 1;
  const predict = (n, level) => {
    const dn = predictD(side.winsorizedVariance, n);
    return dn === 0 ? 0 : quantileT(level, n - 2 * Math.floor(TRIM * n) - 1) * Math.sqrt(dn);
  };
  return { ...buildTInterval({ estimate: side.trimmedMean, se, df }, alpha, predict), se, df };
}

/**
 * g = ⌊0.2 n⌋ values cut from each end; h = n − 2g kept; d = (n − 1) s²_w / (h (h − 1)), the squared standard
 * error of the trimmed mean (s²_w: the sample variance after winsorizing, each cut value set to the nearest kept).
 */
export function describeTrimmed(values) {
  const sorted = [...values].sort((u, v) => u - v);
  const n = sorted.length;
  const g = Math.floor(TRIM * n);
  const h = n - 2 * g;
  const kept = sorted.slice(g, n - g);
  const winsorized = sorted.map((_, i) => sorted[Math.min(Math.max(i, g), n - g - 1)]);
  const winsorizedVariance = sampleVariance(winsorized);
  return { trimmedMean: mean(kept), winsorizedVariance, g, h, d: ((n - 1) * winsorizedVariance) / (h * (h - 1)) };
}

function predictD(winsorizedVariance, n) {
  const h = n - 2 * Math.floor(TRIM * n);
  return ((n - 1) * winsorizedVariance) / (h * (h - 1));
}
