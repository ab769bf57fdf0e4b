// Multiple comparisons with the best (Hsu 1981, 1984), on log values with rounds as blocks: for each setting of a
// budget an upper bound U on how much worse it is than the best of the others, simultaneous at 1 − α. Only the k − 1
// comparisons against the true best must hold for every bound to hold, so the bound of whichever setting the data
// picks is valid (no winner's curse). Pure: values in, numbers out; the decision built on it is
// runner/verdicts/choose-setting.js, the study that chose the variance method is docs/statistics.md.
import jstatModule from 'jstat';
import { median } from 'simple-statistics';

const { jStat } = jstatModule;

/**
 * How the standard error of a difference between two settings is found:
 * - `pooled`: least squares y = μ_setting + β_round + e over every run made (rounds as blocks, unbalanced allowed),
 *   one residual variance for the budget, df = N − k − R + 1;
 * - `paired`: the differences of the two settings over the rounds both ran, df = n − 1;
 * - `hybrid`: `pooled` for a pair whose own residual SDs (from the two-way fit, see estimateSettingVariances) agree
 *   within HYBRID_SD_RATIO, else `paired`;
 * - `blocked-welch`: the two-way fit's estimate, its exact weights on each setting's runs with each setting's own
 *   residual variance, Welch–Satterthwaite df (a pair whose settings' variances read 0 falls back to `paired`);
 * - `welch`: unpaired Welch t on each setting's per-round mean logs, rounds ignored (the baseline without blocks).
 */
export const BOUND_METHODS = ['pooled', 'paired', 'hybrid', 'blocked-welch', 'welch'];

/** `hybrid` pools a pair when the larger residual SD is at most this many times the smaller. */
export const HYBRID_SD_RATIO = 2;

/**
 * Winsorising pulls residuals beyond this many robust SDs (1.4826 · MAD of the setting's own standardised residuals)
 * in to it.
 */
export const WINSORIZE_AT = 2.5;

/**
 * @typedef {object} PairBound  setting i against one other setting j (on the log scale, positive = i worse)
 * @property {string} id  j
 * @property {string} method  the variance method used for this pair (hybrid says which of its two)
 * @property {number} n  rounds both ran (welch: the fewer runs of the two), what a projection scales by
 * @property {number} D  estimate of μ_i − μ_j
 * @property {number} SE  its standard error (Infinity when it cannot be estimated)
 * @property {number} df  degrees of freedom (0 when SE is Infinity)
 * @property {number} c  t quantile at 1 − α/(k − 1) with df (Infinity when df is 0)
 * @property {number} upper  D + c · SE: i is at most this much worse than j
 * @property {number} lower  D − c · SE: i is at least this much worse than j
 */

/**
 * @typedef {object} SettingBound
 * @property {string} id
 * @property {number} n  rounds this setting ran (distinct round labels among its values)
 * @property {number} runs  its values
 * @property {number|null} estimate  its level on the log scale, sign as compared (−log for higher-is-better metrics):
 *   the two-way fit's μ (only differences between settings mean anything), or for welch and paired the mean of its
 *   per-round mean logs; null without values
 * @property {number} U  max(0, max_j upper_ij): the log of "at most e^U − 1 worse than the best of the others";
 *   Infinity when some comparison has no standard error; 0 for the only setting
 * @property {number|null} bound_pct  100 · (e^U − 1); null when U is Infinity
 * @property {string|null} binding  the j that gives U (null when there is no other setting, or U is 0 by the max)
 * @property {PairBound[]} pairs  against every other setting with values, in input order
 */

/**
 * Hsu's MCB upper bounds for every setting of one budget.
 * Several values of one setting in one round (a re-run) are each a run of the two-way fit and their mean log in the
 * paired differences. Settings without values are listed with U = Infinity and are not compared (they were not
 * tried): they do not count in k.
 * @param {{ id: string, values: { round: number|string, value: number }[] }[]} settings  one budget's settings;
 *   values are positive (wall_ms, req/s, …), rounds are any labels (runs.csv `repetition`)
 * @param {{ lowerIsBetter?: boolean, alpha?: number, method?: string, winsorize?: boolean }} [options]
 *   lowerIsBetter (default true): false for a rate (req/s), compared on −log; alpha (0.05): family-wise level;
 *   method: one of BOUND_METHODS (default 'pooled'); winsorize (false): one pass of the two-way fit that pulls
 *   residuals beyond WINSORIZE_AT robust SDs in, before any method is applied; family (k): the number of settings
 *   the t quantile spreads α over (1 − α/(family − 1)): k, or fewer once some settings are known not to be the
 *   best (verdicts/choose-setting.js, rule.stepDown); alphaAt (n, family) → one comparison's one-sided level for a
 *   pair standing on n common rounds, in place of α/(family − 1) (a race's look: verdicts/choose-setting.js)
 * @returns {{ method: string, alpha: number, k: number, family: number, winsorized: number,
 *   fit: { df: number, sd: number|null, sds: (number|null)[] }, settings: SettingBound[] }}
 *   k: settings compared; family: the count the quantile used; winsorized: values pulled in; fit: the two-way fit's
 *   residual df, pooled residual SD and each setting's own residual SD (unbiased under unequal spreads from three
 *   settings up; null where not estimable), in input order
 */
export function compareWithBest(
  settings,
  { lowerIsBetter = true, alpha = 0.05, method = 'pooled', winsorize = false, family = null, alphaAt = null } = {},
) {
  checkInput(settings, method, alpha);
  const sign = lowerIsBetter ? 1 : -1;
  const observations = settings.flatMap((setting, s) =>
    setting.values.map(({ round, value }) => ({ s, round: String(round), y: sign * Math.log(value) })),
  );
  let fit = fitBlocks(observations, settings.length);
  let winsorized = 0;
  if (winsorize) {
    winsorized = winsorizeOnce(fit);
    if (winsorized > 0) fit = fitBlocks(observations, settings.length);
  }
  const measured = settings.map((setting) => setting.values.length > 0);
  const k = measured.filter(Boolean).length;
  const perRound = meanPerRound(observations, settings.length);
  // One comparison's one-sided level: α spread over the k − 1 comparisons with the best, or what alphaAt gives a pair
  // standing on n rounds (a look of a race that spends α over its looks: verdicts/choose-setting.js).
  const levelOf = alphaAt ? (n) => alphaAt(n, family ?? k) : () => alpha / Math.max(1, (family ?? k) - 1);
  const quantile = (df, n) => quantileT(levelOf(n), df);
  const results = settings.map((setting, i) => {
    const result = {
      id: setting.id,
      n: perRound[i].size,
      runs: setting.values.length,
      estimate: measured[i] ? estimateOf(fit, perRound, i, method) : null,
      U: measured[i] ? 0 : Infinity,
      bound_pct: null,
      binding: null,
      pairs: [],
    };
    if (!measured[i]) return result;
    for (let j = 0; j < settings.length; j++) {
      if (j === i || !measured[j]) continue;
      const { method: used, n, D, SE, df } = estimatePair(fit, perRound, i, j, method);
      const c = quantile(df, n);
      // No share of α at this look (c infinite) says nothing, even about a pair whose runs read exactly alike.
      const margin = c === Infinity ? Infinity : SE === 0 ? 0 : c * SE;
      const pair = { id: settings[j].id, method: used, n, D, SE, df, c, upper: D + margin, lower: D - margin };
      result.pairs.push(pair);
      if (pair.upper > result.U) {
        result.U = pair.upper;
        result.binding = pair.id;
      }
    }
    result.bound_pct = Number.isFinite(result.U) ? 100 * Math.expm1(result.U) : null;
    return result;
  });
  return {
    method,
    alpha,
    k,
    family: family ?? k,
    winsorized,
    fit: {
      df: fit.df,
      sd: fit.df > 0 ? Math.sqrt(fit.rss / fit.df) : null,
      // Read on demand: the pooled and paired methods never need each setting's own variance.
      get sds() {
        return fit.sds;
      },
    },
    settings: results,
  };
}

/**
 * The two-way fit alone (y = μ_setting + β_round + e on log values, least squares over the runs given): what the noise
 * of a folder looks like once the settings' levels and the rounds' shifts are taken out (`npm run bench:stats`).
 * @param {{ id: string, values: { round: number|string, value: number }[] }[]} settings
 * @returns {{ df: number, sd: number|null, rounds: { round: string, size: number, effect: number }[],
 *   residuals: { id: string, round: string, residual: number, leverage: number }[] }}
 *   rounds: each round's shift, centred over the rounds (log scale); residuals: each run's, with its share of the
 *   residual variance (leverage M_oo: e / √M_oo has the variance of a run's own noise)
 */
export function fitTwoWay(settings) {
  checkInput(settings, 'pooled', 0.05);
  const observations = settings.flatMap((setting, s) =>
    setting.values.map(({ round, value }) => ({ s, round: String(round), y: Math.log(value) })),
  );
  const fit = fitBlocks(observations, settings.length);
  const centre = fit.rounds.reduce((sum, round) => sum + round.beta, 0) / Math.max(1, fit.rounds.length);
  return {
    df: fit.df,
    sd: fit.df > 0 ? Math.sqrt(fit.rss / fit.df) : null,
    rounds: fit.rounds.map((round) => ({
      round: round.members[0].round,
      size: round.size,
      effect: round.beta - centre,
    })),
    residuals: fit.fitted.map(({ observation, residual, leverage }) => ({
      id: settings[observation.s].id,
      round: observation.round,
      residual,
      leverage,
    })),
  };
}

/**
 * The one-sided MCB constant: Student's t at 1 − α/(k − 1) (Bonferroni over the k − 1 comparisons with the best).
 * Infinity when df is not positive.
 */
export function quantileMcb(alpha, k, df) {
  return quantileT(alpha / Math.max(1, k - 1), df);
}

/**
 * Student's t at 1 − level with df: a one-sided constant. Infinity when df or the level is not positive (a look that
 * may spend nothing). Cached: the race asks for the same few values again and again.
 */
export function quantileT(level, df) {
  if (!(df > 0) || !(level > 0)) return Infinity;
  const p = 1 - level;
  let byDf = QUANTILES.get(p);
  if (byDf === undefined) QUANTILES.set(p, (byDf = new Map()));
  let value = byDf.get(df);
  if (value === undefined) {
    if (byDf.size > 20000) byDf.clear();
    value = jStat.studentt.inv(p, df);
    byDf.set(df, value);
  }
  return value;
}

const QUANTILES = new Map();

function checkInput(settings, method, alpha) {
  if (!BOUND_METHODS.includes(method))
    throw new RangeError(`method must be one of ${BOUND_METHODS.join(', ')}, not ${JSON.stringify(method)}`);
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must lie between 0 and 1, not ${alpha}`);
  if (!Array.isArray(settings) || settings.length === 0) throw new TypeError('settings must be a non-empty array');
  const ids = new Set();
  for (const setting of settings) {
    if (ids.has(setting.id)) throw new RangeError(`setting ${JSON.stringify(setting.id)} is given twice`);
    ids.add(setting.id);
    for (const { value, round } of setting.values) {
      if (!(Number.isFinite(value) && value > 0))
        throw new RangeError(`setting ${setting.id}, round ${round}: a value must be a positive number, not ${value}`);
    }
  }
}

/**
 * The two-way fit y = μ_s + β_r + e by least squares, rounds absorbed: C μ = Q with the block design's information
 * matrix C = diag(N_s) − Σ_r n_r n_rᵀ / n_r and Q_s = T_s − Σ_r n_rs ȳ_r (Searle, Linear Models, ch. 7). C is singular
 * (each connected group of settings has an unestimable level), so G = (C + Σ_groups u uᵀ / |group|)⁻¹ serves as its
 * generalised inverse: every contrast within a group is estimated exactly, one across groups not at all. A round
 * that holds a single setting carries no contrast (its β takes its mean); its runs count only through their spread
 * about that mean. Keeps the observations, to be winsorised in place.
 */
function fitBlocks(observations, settingCount) {
  const byRound = new Map();
  for (const observation of observations) {
    if (!byRound.has(observation.round)) byRound.set(observation.round, []);
    byRound.get(observation.round).push(observation);
  }
  const rounds = [...byRound.values()].map((members) => {
    const counts = new Array(settingCount).fill(0);
    let sum = 0;
    for (const { s, y } of members) {
      counts[s] += 1;
      sum += y;
    }
    return { members, counts, size: members.length, mean: sum / members.length };
  });
  const C = Array.from({ length: settingCount }, () => new Array(settingCount).fill(0));
  const Q = new Array(settingCount).fill(0);
  for (const { members, counts, size, mean } of rounds) {
    for (const { s, y } of members) Q[s] += y - mean;
    for (let a = 0; a < settingCount; a++) {
      if (counts[a] === 0) continue;
      C[a][a] += counts[a];
      for (let b = 0; b < settingCount; b++) C[a][b] -= (counts[a] * counts[b]) / size;
    }
  }
  const group = groupSettings(rounds, settingCount);
  const groupSize = group.map((g) => group.filter((h) => h === g).length);
  const G = jStat.inv(C.map((row, a) => row.map((value, b) => value + (group[a] === group[b] ? 1 / groupSize[a] : 0))));
  const mu = G.map((row) => row.reduce((sum, value, b) => sum + value * Q[b], 0));
  // Per round: h_r = G n_r / n_r, the round's share of each level; β̂_r = ȳ_r − n_rᵀ μ̂ / n_r.
  for (const round of rounds) {
    round.h = G.map((row) => row.reduce((sum, value, b) => sum + (value * round.counts[b]) / round.size, 0));
    round.hh = round.counts.reduce((sum, count, a) => sum + (count * round.h[a]) / round.size, 0);
    round.beta = round.mean - round.counts.reduce((sum, count, a) => sum + (count * mu[a]) / round.size, 0);
  }
  // Residuals, their leverage-corrected variance share M_oo = 1 − 1/n_r − L_oᵀ G L_o (L_o = e_s − n_r / n_r), and
  // per setting the residual sum of squares S_s and its df ν_s = Σ M_oo (Σ_s ν_s = N − rank).
  const rss = new Array(settingCount).fill(0);
  const nu = new Array(settingCount).fill(0);
  const fitted = [];
  for (const round of rounds) {
    for (const observation of round.members) {
      const { s } = observation;
      const residual = observation.y - mu[s] - round.beta;
      const leverage = 1 - 1 / round.size - (G[s][s] - 2 * round.h[s] + round.hh);
      rss[s] += residual * residual;
      nu[s] += leverage;
      fitted.push({ observation, residual, leverage });
    }
  }
  const present = new Set(rounds.flatMap(({ members }) => members.map(({ s }) => s)));
  const groups = new Set([...present].map((s) => group[s])).size;
  const N = fitted.length;
  const df = N - rounds.length - (present.size - groups);
  const totalRss = rss.reduce((sum, value) => sum + value, 0);
  const fit = { G, mu, rounds, group, rss: totalRss, df, perSetting: { rss, nu }, fitted };
  addSettingSpreads(fit, () =>
    estimateSettingVariances(
      rounds,
      G,
      rss,
      nu,
      [...present].sort((a, b) => a - b),
    ),
  );
  return fit;
}

/**
 * fit.perSetting.variances and fit.sds, each setting's own residual variance and SD: a k × k solve over every
 * (round, setting) cell, made only when read (hybrid, blocked-welch, the fit's sds; never for pooled or paired), once.
 */
function addSettingSpreads(fit, estimate) {
  let variances = null;
  const read = () => (variances ??= estimate());
  Object.defineProperty(fit.perSetting, 'variances', { get: read, enumerable: true });
  Object.defineProperty(fit, 'sds', {
    get: () => read().map((variance) => (variance === null ? null : Math.sqrt(variance))),
    enumerable: true,
  });
}

/**
 * Each setting's own residual variance, unbiased when the settings differ in spread. Under Var(e_o) = σ²_s(o) the
 * residual sums of squares have E[S_l] = Σ_m A_lm σ_m², A_lm = Σ_{o∈l, o'∈m} M_oo'² (M = I − H, the residual maker),
 * so σ̂² = A⁻¹ S (a MINQUE-type estimator; with balanced rounds it is Shukla's stability variance). S_l / ν_l alone
 * would pull the spreads together, because a setting's residuals carry part of the others' noise: with four settings
 * and one three times as noisy as the rest it reads about two times. Needs three settings: with two only the sum of
 * their variances is estimable, and S_l / ν_l (equal for both) serves. A negative estimate (a quiet setting beside
 * noisy ones over few rounds) is 0. Per observation pair, M_oo' = [same run] − [same round] / n_r − L_oᵀ G L_o'
 * (L_o = e_s − n_r / n_r); runs of one setting in one round share L, so the sums run over (round, setting) cells.
 * @returns {(number|null)[]} per setting; null where it has no residual df
 */
function estimateSettingVariances(rounds, G, rss, nu, present) {
  const biased = rss.map((value, s) => (nu[s] > 1e-9 ? value / nu[s] : null));
  if (present.length < 3) return biased;
  const cells = [];
  rounds.forEach((round, r) => {
    round.counts.forEach((count, s) => {
      if (count > 0) cells.push({ r, s, count, size: round.size, gl: G.map((row, a) => row[s] - round.h[a]) });
    });
  });
  // t[r][c] = n_rᵀ (G L_c) / n_r: the round-mean part of L_oᵀ G L_c for any run o of round r.
  const t = rounds.map((round) =>
    cells.map(({ gl }) => round.counts.reduce((sum, count, a) => sum + count * gl[a], 0) / round.size),
  );
  const index = new Map(present.map((s, i) => [s, i]));
  const A = present.map(() => new Array(present.length).fill(0));
  cells.forEach((c, x) => {
    const row = A[index.get(c.s)];
    cells.forEach((d, y) => {
      const q = d.gl[c.s] - t[c.r][y];
      const shared = c.r === d.r ? 1 / c.size : 0;
      if (x === y) {
        row[index.get(d.s)] += c.count * (1 - shared - q) ** 2 + c.count * (c.count - 1) * (shared + q) ** 2;
      } else {
        row[index.get(d.s)] += c.count * d.count * (shared + q) ** 2;
      }
    });
  });
  const inverse = jStat.inv(A);
  const solved = inverse.map((row) => row.reduce((sum, value, m) => sum + value * rss[present[m]], 0));
  if (!solved.every(Number.isFinite)) return biased;
  return biased.map((value, s) => (index.has(s) && value !== null ? Math.max(0, solved[index.get(s)]) : value));
}

/** Connected groups of settings: two settings are connected when some round (of the fit) ran both. */
function groupSettings(rounds, settingCount) {
  const parent = Array.from({ length: settingCount }, (_, s) => s);
  const find = (s) => (parent[s] === s ? s : (parent[s] = find(parent[s])));
  for (const { counts } of rounds) {
    let first = -1;
    for (let s = 0; s < settingCount; s++) {
      if (counts[s] === 0) continue;
      if (first < 0) first = s;
      else parent[find(s)] = find(first);
    }
  }
  return parent.map((_, s) => find(s));
}

/**
 * One pass, each setting on its own scale: its residuals standardised by their own SD share (e / √M_oo), its robust SD
 * = 1.4826 · MAD of those; a residual beyond WINSORIZE_AT of its setting's robust SDs is pulled in to that distance
 * (the value moves, the run stays). One scale for every setting would pull a noisier setting's runs in and shrink
 * its standard error below its spread (docs/statistics.md measured the failures that made). A setting needs three
 * usable residuals and a positive spread; with fewer nothing of it is pulled in.
 * @returns {number} how many values were pulled in
 */
function winsorizeOnce(fit) {
  if (fit.df < 1) return 0;
  const bySetting = new Map();
  for (const entry of fit.fitted) {
    if (!(entry.leverage > 1e-9)) continue;
    const { s } = entry.observation;
    if (!bySetting.has(s)) bySetting.set(s, []);
    bySetting.get(s).push(entry);
  }
  let pulled = 0;
  for (const usable of bySetting.values()) {
    if (usable.length < 3) continue;
    const standardised = usable.map(({ residual, leverage }) => residual / Math.sqrt(leverage));
    const centre = median(standardised);
    const spread = 1.4826 * median(standardised.map((z) => Math.abs(z - centre)));
    if (!(spread > 0)) continue;
    for (const { observation, residual, leverage } of usable) {
      const limit = WINSORIZE_AT * spread * Math.sqrt(leverage);
      if (Math.abs(residual) > limit) {
        observation.y += Math.sign(residual) * limit - residual;
        pulled += 1;
      }
    }
  }
  return pulled;
}

/** Per setting, its rounds → the mean of its values' logs in that round. */
function meanPerRound(observations, settingCount) {
  const sums = Array.from({ length: settingCount }, () => new Map());
  const counts = Array.from({ length: settingCount }, () => new Map());
  for (const { s, round, y } of observations) {
    sums[s].set(round, (sums[s].get(round) ?? 0) + y);
    counts[s].set(round, (counts[s].get(round) ?? 0) + 1);
  }
  sums.forEach((rounds, s) => {
    for (const [round, sum] of rounds) rounds.set(round, sum / counts[s].get(round));
  });
  return sums;
}

function estimateOf(fit, perRound, i, method) {
  if (method === 'welch' || method === 'paired') {
    const values = [...perRound[i].values()];
    return values.reduce((sum, y) => sum + y, 0) / values.length;
  }
  return fit.mu[i];
}

function estimatePair(fit, perRound, i, j, method) {
  if (method === 'pooled') return estimatePooled(fit, perRound, i, j);
  if (method === 'paired') return estimatePaired(perRound, i, j);
  if (method === 'blocked-welch') return estimateBlockedWelch(fit, perRound, i, j);
  if (method === 'welch') return estimateWelch(perRound, i, j);
  const { sds } = fit;
  const [si, sj] = [sds[i], sds[j]];
  const agree = si > 0 && sj > 0 && Math.max(si, sj) <= HYBRID_SD_RATIO * Math.min(si, sj);
  return agree ? estimatePooled(fit, perRound, i, j) : estimatePaired(perRound, i, j);
}

function countCommon(perRound, i, j) {
  let n = 0;
  for (const round of perRound[i].keys()) if (perRound[j].has(round)) n += 1;
  return n;
}

function estimatePooled(fit, perRound, i, j) {
  const n = countCommon(perRound, i, j);
  const D = fit.mu[i] - fit.mu[j];
  if (fit.group[i] !== fit.group[j] || !(fit.df > 0)) return { method: 'pooled', n, D, SE: Infinity, df: 0 };
  const { G } = fit;
  const variance = (fit.rss / fit.df) * (G[i][i] + G[j][j] - G[i][j] - G[j][i]);
  return { method: 'pooled', n, D, SE: Math.sqrt(Math.max(0, variance)), df: fit.df };
}

/**
 * The two-way fit's contrast μ̂_i − μ̂_j = Σ_o w_o y_o with its exact weights w (a run of setting s in round r:
 * (G_is − G_js) − (h_r,i − h_r,j)); under per-setting variances σ_s² its variance is Σ_s A_s σ_s², A_s = Σ_{o∈s} w_o²,
 * each σ_s² estimated by S_s / ν_s; Welch–Satterthwaite df from the ν_s.
 */
function estimateBlockedWelch(fit, perRound, i, j) {
  const n = countCommon(perRound, i, j);
  const D = fit.mu[i] - fit.mu[j];
  if (fit.group[i] !== fit.group[j]) return { method: 'blocked-welch', n, D, SE: Infinity, df: 0 };
  const { G, rounds, perSetting } = fit;
  const weight = new Array(G.length).fill(0);
  for (const { counts, h } of rounds) {
    const shift = h[i] - h[j];
    counts.forEach((count, s) => {
      if (count > 0) weight[s] += count * (G[i][s] - G[j][s] - shift) ** 2;
    });
  }
  let variance = 0;
  let denominator = 0;
  for (let s = 0; s < G.length; s++) {
    if (weight[s] < 1e-15) continue;
    if (!(perSetting.nu[s] > 1e-9)) return { method: 'blocked-welch', n, D, SE: Infinity, df: 0 };
    const part = weight[s] * perSetting.variances[s];
    variance += part;
    denominator += (part * part) / perSetting.nu[s];
  }
  // Every setting involved read as quieter than anything (estimates cut at 0): nothing to weigh; the pair's own
  // differences still say how much they vary.
  if (variance === 0) return estimatePaired(perRound, i, j);
  return { method: 'blocked-welch', n, D, SE: Math.sqrt(variance), df: (variance * variance) / denominator };
}

function estimatePaired(perRound, i, j) {
  const differences = [];
  for (const [round, y] of perRound[i]) if (perRound[j].has(round)) differences.push(y - perRound[j].get(round));
  const n = differences.length;
  // No round in common: nothing to pair; the means say where they stand, the bound says nothing.
  if (n === 0)
    return {
      method: 'paired',
      n,
      D: average([...perRound[i].values()]) - average([...perRound[j].values()]),
      SE: Infinity,
      df: 0,
    };
  const D = differences.reduce((sum, d) => sum + d, 0) / n;
  if (n < 2) return { method: 'paired', n, D, SE: Infinity, df: 0 };
  const variance = differences.reduce((sum, d) => sum + (d - D) ** 2, 0) / (n - 1);
  return { method: 'paired', n, D, SE: Math.sqrt(variance / n), df: n - 1 };
}

function estimateWelch(perRound, i, j) {
  const [x, y] = [[...perRound[i].values()], [...perRound[j].values()]];
  const n = Math.min(x.length, y.length);
  const D = average(x) - average(y);
  if (x.length < 2 || y.length < 2) return { method: 'welch', n, D, SE: Infinity, df: 0 };
  const [vx, vy] = [variance(x) / x.length, variance(y) / y.length];
  const se2 = vx + vy;
  if (se2 === 0) return { method: 'welch', n, D, SE: 0, df: x.length + y.length - 2 };
  return {
    method: 'welch',
    n,
    D,
    SE: Math.sqrt(se2),
    df: se2 ** 2 / (vx ** 2 / (x.length - 1) + vy ** 2 / (y.length - 1)),
  };
}

function average(values) {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function variance(values) {
  const m = average(values);
  return values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1);
}
