// Exact null distributions of the two rank statistics behind the Hodges–Lehmann intervals: Mann–Whitney's U
// (two samples) and Wilcoxon's signed-rank T+ (one sample of paired differences). Hand-written because no
// well-kept npm package gives the Mann–Whitney distribution (jstat and simple-statistics have neither; the
// small packages that do use the normal approximation, which is wrong at 3–10 runs a side), and the signed-rank
// one is the same few lines of counting. Both are counts of equally likely arrangements, so they are exact; a
// unit test pins them against SciPy.
import jstatModule from 'jstat';

const { jStat } = jstatModule;

// Past this many values on a side the counting tables grow large; R's wilcox.test switches to the normal
// approximation at 50 too.
const EXACT_LIMIT = 50;

const mannWhitneyCache = new Map();
const signedRankCache = new Map();

/**
 * P(U ≤ u) for U = #{(i, j): x_i < y_j} of m and n values from one continuous distribution (no ties).
 * @returns {number}
 */
export function cdfMannWhitney(u, m, n) {
  if (u < 0) return 0;
  if (u >= m * n) return 1;
  if (m >= EXACT_LIMIT || n >= EXACT_LIMIT)
    return normalCdf(u + 0.5, (m * n) / 2, Math.sqrt((m * n * (m + n + 1)) / 12));
  return cumulate(mannWhitneyCache, `${m},${n}`, () => countMannWhitney(m, n))[Math.floor(u)];
}

/**
 * P(T+ ≤ t) for T+ = the sum of the ranks of |d| over the positive differences d, n differences symmetric
 * around 0 (no zeros, no ties).
 */
export function cdfSignedRank(t, n) {
  if (t < 0) return 0;
  const top = (n * (n + 1)) / 2;
  if (t >= top) return 1;
  if (n >= EXACT_LIMIT) return normalCdf(t + 0.5, top / 2, Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24));
  return cumulate(signedRankCache, String(n), () => countSignedRank(n))[Math.floor(t)];
}

// Arrangements of m x's and n y's by U: adding a y after i x's adds i to U, so the counts for (i, j) are those
// for (i, j − 1) plus those for (i − 1, j) shifted by j. One row of polynomials is kept at a time.
function countMannWhitney(m, n) {
  let previous = Array.from({ length: n + 1 }, () => [1]);
  for (let i = 1; i <= m; i++) {
    const row = [[1]];
    for (let j = 1; j <= n; j++) {
      const counts = new Array(i * j + 1).fill(0);
      row[j - 1].forEach((count, u) => {
        counts[u] += count;
      });
      previous[j].forEach((count, u) => {
        counts[u + j] += count;
      });
      row.push(counts);
    }
    previous = row;
  }
  return previous[n];
}

// Subsets of the ranks 1..n by their sum: the coefficients of (1 + q)(1 + q²)…(1 + qⁿ).
function countSignedRank(n) {
  let counts = [1];
  for (let rank = 1; rank <= n; rank++) {
    const next = new Array(counts.length + rank).fill(0);
    counts.forEach((count, sum) => {
      next[sum] += count;
      next[sum + rank] += count;
    });
    counts = next;
  }
  return counts;
}

function cumulate(cache, key, count) {
  if (!cache.has(key)) {
    const counts = count();
    const total = counts.reduce((sum, value) => sum + value, 0);
    let running = 0;
    cache.set(
      key,
      counts.map((value) => (running += value) / total),
    );
  }
  return cache.get(key);
}

function normalCdf(x, mean, sd) {
  return jStat.normal.cdf(x, mean, sd);
}
