// The figures of bench:noise (scripts/bench-noise.js), from observations of one way of measuring: how much a run's log
// value spreads once its cell and its round are known, how much the difference between two settings of a budget
// spreads from round to round (what a bound on "at most 5% slower than the best" is made of), how much of that the
// speed probe explains, and how many rounds would bring the bound under 5%.
import { adjustByCovariate, fitWithinSlope } from '../../runner/stats/covariate.js';
import { compareWithBest, quantileMcb } from '../../runner/stats/mcb.js';
import { DEFAULT_BOUND_RULE } from '../../runner/verdicts/choose-setting.js';

/**
 * @typedef {object} Observation  one run
 * @property {string} budget   what advice compares settings within (e.g. "pbkdf2 cpus=1")
 * @property {string} cell     the setting
 * @property {string} round    the round it ran in (runs of one round are compared with each other)
 * @property {number} y        log of its value (wall_ms)
 * @property {number} [probe]  log of its speed probe's time (speed_probe_ms)
 * @property {number} [probeCpu] log of the probe's CPU time (speed_probe_cpu_ms)
 */

/** Observations → budget → { cells, rounds: Map round → Map cell → Observation } (the later of two runs wins). */
export function tabulate(observations) {
  const budgets = new Map();
  for (const observation of observations) {
    if (!Number.isFinite(observation.y)) continue;
    if (!budgets.has(observation.budget)) budgets.set(observation.budget, { cells: new Set(), rounds: new Map() });
    const budget = budgets.get(observation.budget);
    budget.cells.add(observation.cell);
    if (!budget.rounds.has(observation.round)) budget.rounds.set(observation.round, new Map());
    budget.rounds.get(observation.round).set(observation.cell, observation);
  }
  return new Map([...budgets].map(([name, { cells, rounds }]) => [name, { cells: [...cells].sort(), rounds }]));
}

/**
 * The two-way fit (cell + round) within each budget, over the rounds in which every cell of the budget ran: the SD of
 * the residuals (what is left of a run once its setting and its round are known), and the SD of the round effects
 * beyond what the residuals alone would give them (the shift a whole round shares).
 * @returns {{ sd: number, df: number, roundSd: number, rounds: number } | null}
 */
export function measureBlockedResidualSd(observations) {
  let ss = 0;
  let df = 0;
  let roundExcess = 0;
  let roundDf = 0;
  let roundCount = 0;
  for (const { cells, rounds } of tabulate(observations).values()) {
    const complete = [...rounds.values()].filter((round) => cells.every((cell) => round.has(cell)));
    const r = complete.length;
    const c = cells.length;
    if (r < 2 || c < 2) continue;
    const table = complete.map((round) => cells.map((cell) => round.get(cell).y));
    const grand = mean(table.flat());
    const rowMeans = table.map(mean);
    const colMeans = cells.map((_, j) => mean(table.map((row) => row[j])));
    let budgetSs = 0;
    table.forEach((row, i) =>
      row.forEach((value, j) => {
        budgetSs += (value - rowMeans[i] - colMeans[j] + grand) ** 2;
      }),
    );
    const budgetDf = (r - 1) * (c - 1);
    ss += budgetSs;
    df += budgetDf;
    // Var(round means) = σ²_round + σ²/c: take the residuals' share off.
    const roundVar = rowMeans.reduce((total, m) => total + (m - grand) ** 2, 0) / (r - 1);
    roundExcess += (r - 1) * (roundVar - budgetSs / budgetDf / c);
    roundDf += r - 1;
    roundCount += r;
  }
  if (df === 0) return null;
  return { sd: Math.sqrt(ss / df), df, roundSd: Math.sqrt(Math.max(0, roundExcess / roundDf)), rounds: roundCount };
}

/**
 * Every pair of settings of a budget, on the rounds both ran: d = y_b − y_a (the log ratio b / a of that round), and
 * the same difference of each covariate.
 * @returns {{ budget: string, a: string, b: string, d: number[], probe: number[], probeCpu: number[] }[]}
 */
export function pairSettings(observations) {
  const pairs = [];
  for (const [budget, { cells, rounds }] of tabulate(observations)) {
    cells.forEach((a, i) =>
      cells.slice(i + 1).forEach((b) => {
        const pair = { budget, a, b, d: [], probe: [], probeCpu: [] };
        for (const round of rounds.values()) {
          if (!round.has(a) || !round.has(b)) continue;
          pair.d.push(round.get(b).y - round.get(a).y);
          pair.probe.push(round.get(b).probe - round.get(a).probe);
          pair.probeCpu.push(round.get(b).probeCpu - round.get(a).probeCpu);
        }
        if (pair.d.length >= 2) pairs.push(pair);
      }),
    );
  }
  return pairs;
}

/**
 * The SD of the paired differences, pooled over pairs (each pair about its own mean: the true gap between two
 * settings is no noise), and with a covariate taken out (the pooled within-pair slope of d on the covariate's
 * difference, runner/stats/covariate.js).
 * @param {ReturnType<typeof pairSettings>} pairs
 * @param {'probe'|'probeCpu'|null} covariate
 * @returns {{ sd: number, df: number, pairs: number, correlation?: number, varianceReduction?: number } | null}
 */
export function measurePairedSd(pairs, covariate = null) {
  if (pairs.length === 0) return null;
  if (covariate) {
    const fit = fitWithinSlope(pairs.map((pair) => ({ x: pair[covariate], y: pair.d })));
    if (!fit) return null;
    return {
      sd: fit.sdAfter,
      df: fit.n - fit.groups - 1,
      pairs: fit.groups,
      correlation: fit.correlation,
      varianceReduction: fit.varianceReduction,
    };
  }
  let ss = 0;
  let df = 0;
  for (const { d } of pairs) {
    const m = mean(d);
    ss += d.reduce((total, value) => total + (value - m) ** 2, 0);
    df += d.length - 1;
  }
  return df > 0 ? { sd: Math.sqrt(ss / df), df, pairs: pairs.length } : null;
}

/** Within each cell, how log wall moves with the log probe: the pooled correlation and the variance it explains. */
export function fitCellCovariate(observations, covariate = 'probe') {
  const byCell = new Map();
  for (const observation of observations) {
    if (!Number.isFinite(observation.y) || !Number.isFinite(observation[covariate])) continue;
    if (!byCell.has(observation.cell)) byCell.set(observation.cell, { x: [], y: [] });
    byCell.get(observation.cell).x.push(observation[covariate]);
    byCell.get(observation.cell).y.push(observation.y);
  }
  return fitWithinSlope([...byCell.values()]);
}

/**
 * The fewest rounds n after which a setting `gap` slower than the best (0: tied) would be shown at most `within`
 * slower, with a paired log difference of SD `sd`: the smallest n with t(1 − α/(k − 1), n − 1) · sd / √n ≤
 * ln(1 + within) − ln(1 + gap) — the one-sided constant of advice's bound (quantileMcb: Bonferroni over the k − 1
 * comparisons with the best) on a paired difference. null when more than `most` rounds would be needed.
 */
export function countRoundsToBound(sd, { within = 0.05, gap = 0, k = 4, alpha = 0.05, most = 1000 } = {}) {
  const room = Math.log(1 + within) - Math.log(1 + gap);
  if (!(room > 0) || !Number.isFinite(sd)) return null;
  for (let n = 2; n <= most; n++) if ((quantileMcb(alpha, k, n - 1) * sd) / Math.sqrt(n) <= room) return n;
  return null;
}

/**
 * The bound each budget reached with these runs, as advice computes it (Hsu's MCB, runner/stats/mcb.js, with the
 * default rule's variance method and winsorising): the smallest "at most U% slower than the best" of its settings.
 * With a covariate, each run's log value is first moved by the pooled within-cell slope to the covariate's mean
 * (runner/stats/covariate.js), as an analysis using the probe would.
 * @returns {{ budget: string, bound_pct: number|null }[]}
 */
export function measureBounds(observations, { covariate = null, rule = DEFAULT_BOUND_RULE } = {}) {
  let adjusted = observations.filter((observation) => Number.isFinite(observation.y));
  if (covariate) {
    adjusted = adjusted.filter((observation) => Number.isFinite(observation[covariate]));
    const fit = fitCellCovariate(adjusted, covariate);
    if (!fit) return [];
    const centre = adjusted.reduce((total, observation) => total + observation[covariate], 0) / adjusted.length;
    adjusted = adjusted.map((observation) => ({
      ...observation,
      y: adjustByCovariate([observation.y], [observation[covariate]], fit.slope, centre)[0],
    }));
  }
  return [...tabulate(adjusted)].map(([budget, { cells, rounds }]) => {
    const settings = cells.map((cell) => ({
      id: cell,
      values: [...rounds].flatMap(([round, byCell]) =>
        byCell.has(cell) ? [{ round, value: Math.exp(byCell.get(cell).y) }] : [],
      ),
    }));
    const { settings: bounds } = compareWithBest(settings, { method: rule.method, winsorize: rule.winsorize });
    const finite = bounds.map((bound) => bound.bound_pct).filter((value) => value !== null);
    return { budget, bound_pct: finite.length > 0 ? Math.min(...finite) : null };
  });
}

function mean(values) {
  return values.reduce((total, value) => total + value, 0) / values.length;
}

/**
 * Bootstrap replicates of a statistic of the observations, resampling whole rounds with replacement (a round's runs
 * share its noise, so the round is the unit that repeats); each drawn round is relabelled, so one drawn twice counts
 * twice.
 * @param {Observation[]} observations
 * @param {(observations: Observation[]) => number|undefined} statistic
 * @param {{ resamples?: number, random: () => number }} options  random: a seeded generator (runner/stats/random.js)
 * @returns {number[]} the finite replicates
 */
export function bootstrapRounds(observations, statistic, { resamples = 1000, random }) {
  const byRound = new Map();
  for (const observation of observations) {
    if (!byRound.has(observation.round)) byRound.set(observation.round, []);
    byRound.get(observation.round).push(observation);
  }
  const rounds = [...byRound.values()];
  const replicates = [];
  for (let draw = 0; draw < resamples; draw++) {
    const sample = rounds.flatMap((_, index) => {
      const round = rounds[Math.floor(random() * rounds.length)];
      return round.map((observation) => ({ ...observation, round: `${observation.round}#${index}` }));
    });
    const value = statistic(sample);
    if (Number.isFinite(value)) replicates.push(value);
  }
  return replicates;
}

/** The paired SD of observations (pairSettings then measurePairedSd): bootstrapRounds' usual statistic. */
export function measurePairedSdOf(observations, covariate = null) {
  return measurePairedSd(pairSettings(observations), covariate)?.sd;
}

/** The 2.5% and 97.5% quantiles of replicates (linear between order statistics). */
export function findPercentileInterval(replicates, level = 0.95) {
  if (replicates.length === 0) return null;
  const sorted = [...replicates].sort((a, b) => a - b);
  const at = (p) => {
    const position = p * (sorted.length - 1);
    const low = Math.floor(position);
    return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (position - low);
  };
  return [at((1 - level) / 2), at(1 - (1 - level) / 2)];
}
