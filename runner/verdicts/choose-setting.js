// The budget's decision, "use X: at most U% slower than the best tried (95%)", and which settings the next round
// runs, from runner/stats/mcb.js's simultaneous bounds. A pure function of the runs of the rounds so far: the race
// calls it after every round and `--resume` replays it from runs.csv, with the same answer at the same round.
// docs/statistics.md ("The answer per budget") chose the rule by simulation and explains the bound in words.
import { levelAtLook, SPENDING_KINDS, SPENDING_SHAPES } from '../stats/alpha-spending.js';
import { BOUND_METHODS, compareWithBest, quantileT } from '../stats/mcb.js';

/**
 * The rule the study of docs/statistics.md chose (npm run bench:stats, "The rule chosen"): the variance method, the
 * rounds every setting runs before any is dropped (n0), the first look (no bound, elimination or settling before
 * round `from`), how α is spent over the race's looks (`spending`: runner/stats/alpha-spending.js), winsorising,
 * the step down, and futility (from round `futilityFrom`, giving a candidate `futilityHope` standard errors of
 * benefit of the doubt). The bound must hold at every look the race takes, at each design's worst case: the union
 * share of α (valid by construction) kept it where the exact group-sequential levels, the step-down and winsorising
 * did not (a cheap setting three times as noisy as the rest), and it took the fewest runs against the limit of an
 * ideal sequential test on the default file among the rules that kept it. A unit test keeps it equal to the page.
 */
export const DEFAULT_BOUND_RULE = Object.freeze({
  method: 'pooled',
  n0: 2,
  from: 3,
  spending: Object.freeze({ shape: 'pocock', kind: 'union' }),
  winsorize: false,
  stepDown: false,
  futilityFrom: 3,
  futilityHope: 1,
});

/**
 * The same rule for an answer read once, at the end (a grid: nothing stops on it): one look, so the whole α at it.
 */
export const ONE_LOOK_RULE = Object.freeze({ ...DEFAULT_BOUND_RULE, spending: null });

/**
 * @typedef {object} SettingState
 * @property {string} id
 * @property {number} cost  what the setting costs in production, as verdicts/advice.js orderByCost ranks it
 *   (processes, measured memory, today's setting first; cheaper first, input order breaks ties)
 * @property {number} n  rounds it ran
 * @property {number} U  its MCB bound (log scale; Infinity when not yet estimable)
 * @property {number|null} bound_pct  100 · (e^U − 1): "at most this many per cent slower than the best tried"
 * @property {string|null} binding  the setting its bound is against
 * @property {number|null} projected_pct  its bound projected to the cap (same D, SE · √(n / cap), df at the cap);
 *   null when it cannot be projected
 * @property {'recommended'|'eliminated'|'futile'|'candidate'|'not needed'} state
 * @property {string|null} reason  why eliminated, futile or not needed, in words
 */

/**
 * The decision for one budget after the rounds so far.
 *
 * - Before n0 rounds every setting runs (no drop, no settling); the bounds are reported as they stand.
 * - A setting is **eliminated** when it is confidently more than `within` worse than another: D_ij − c·SE_ij > δ,
 *   δ = ln(1 + within).
 * - **settled**: the cheapest non-eliminated setting whose bound U ≤ δ is recommended. **open** while none is: the
 *   setting with the smallest bound (the cheapest among ties) is recommended, with the rounds that would probably
 *   bring its bound under δ (`roundsNeeded`, from the projection; null when the cap cannot).
 * - A candidate is **futile** (from round `rule.futilityFrom`) when its bound projected to the cap stays above δ.
 * - `nextRound`: the cheaper hopeful candidates (cheaper than the settled recommendation; every hopeful one while
 *   open) and, for each, the setting that binds its bound; settings at the cap are left out. Empty when the budget
 *   is done: `stop` says why ('settled': recommended and no cheaper hopeful candidate; 'futile': no candidate can
 *   reach δ by the cap; 'cap': every setting still in ran the cap).
 * @param {{ id: string, cost: number, values: { round: number|string, value: number }[] }[]} settings
 * @param {{ within?: number, cap: number, rule?: { method: string, n0: number, winsorize: boolean, stepDown?: boolean,
 *   futilityFrom?: number }, alpha?: number, lowerIsBetter?: boolean }} options
 *   within (0.05): the margin; cap: the most rounds a setting may run; rule (DEFAULT_BOUND_RULE); alpha (0.05);
 *   lowerIsBetter (true; false for a rate)
 * @returns {{ status: 'settled'|'open', recommended: string, U: number, bound_pct: number|null,
 *   binding: string|null, roundsNeeded: number|null, nextRound: string[], stop: null|'settled'|'futile'|'cap',
 *   rounds: number, within: number, settings: SettingState[], comparison: object }}
 *   rounds: the rounds so far (labels that two settings ran, see countRounds); comparison: compareWithBest's output
 */
export function chooseSetting(
  settings,
  { within = 0.05, cap, rule = DEFAULT_BOUND_RULE, alpha = 0.05, lowerIsBetter = true } = {},
) {
  checkOptions(settings, { within, cap, rule });
  const delta = Math.log1p(within);
  const rounds = countRounds(settings);
  const starting = rounds < rule.n0;
  const order = settings.map((_, i) => i).sort((a, b) => settings[a].cost - settings[b].cost || a - b);
  const bounded = boundSettings(settings, { rule, alpha, cap, lowerIsBetter, delta, starting, order });
  const decision = decide(settings, bounded, { rule, cap, delta, rounds, starting, order });
  const { bounds, comparison } = bounded;
  const { recommended, settled, projected } = decision;
  const rec = bounds[recommended];
  return {
    status: settled ? 'settled' : 'open',
    recommended: rec.id,
    U: rec.U,
    bound_pct: rec.bound_pct,
    binding: rec.binding,
    roundsNeeded: settled ? 0 : findRoundsNeeded((extra) => bounded.project(recommended, extra) <= delta, cap - rec.n),
    nextRound: decision.nextRound,
    stop: decision.stop,
    rounds,
    within,
    settings: bounds.map((bound, i) => ({
      id: bound.id,
      cost: settings[i].cost,
      n: bound.n,
      U: bound.U,
      bound_pct: bound.bound_pct,
      binding: bound.binding,
      projected_pct: Number.isFinite(projected[i]) ? 100 * Math.expm1(projected[i]) : null,
      ...describeState(i, settings, bounded, decision, { within, cap, starting }),
    })),
    comparison,
  };
}

// The bounds at this look, the settings eliminated (confidently more than `within` worse than another), and each
// setting's bound projected to more rounds.
function boundSettings(settings, { rule, alpha, cap, lowerIsBetter, delta, starting, order }) {
  const levelAt = levelsOf(rule, { alpha, cap });
  const compare = (family) =>
    compareWithBest(settings, {
      method: rule.method,
      winsorize: rule.winsorize,
      alpha,
      lowerIsBetter,
      family,
      alphaAt: levelAt,
    });
  let comparison = compare(null);
  // Elimination always spreads α over every setting tried.
  const elimination = comparison.settings.map((bound) => {
    if (starting) return null;
    const worst = bound.pairs.reduce((top, pair) => (top === null || pair.lower > top.lower ? pair : top), null);
    return worst !== null && worst.lower > delta ? worst : null;
  });
  const alive = order.filter((i) => elimination[i] === null);
  // A setting confidently more than `within` worse than another is not the best, so the comparisons with the best
  // that the bounds rest on are among the settings still in: with rule.stepDown the quantile spreads α over those
  // (a step down, as Holm's; docs/statistics.md measured where the bounds then fail).
  const survivors = alive.filter((i) => settings[i].values.length > 0).length;
  if (rule.stepDown && survivors >= 2 && survivors < comparison.k) comparison = compare(survivors);
  const bounds = comparison.settings;
  const roundsOf = new Map(bounds.map(({ id, n }) => [id, n]));
  const project = (i, extra, hope = 0) =>
    projectPairs(bounds[i], roundsOf, extra, { cap, levelAt, k: comparison.family, hope });
  return { comparison, bounds, elimination, alive, project };
}

// Settled or open, the recommendation, which candidates can still reach the margin by the cap, and the next round.
function decide(settings, { bounds, alive, project }, { rule, cap, delta, rounds, starting, order }) {
  const futilityOn = !starting && rounds >= (rule.futilityFrom ?? rule.n0);
  const settledAt = starting ? undefined : alive.find((i) => bounds[i].U <= delta);
  const settled = settledAt !== undefined;
  const pool = alive.length ? alive : order;
  const recommended = settled ? settledAt : pool.reduce((best, i) => (bounds[i].U < bounds[best].U ? i : best));
  const projected = bounds.map((bound, i) => project(i, cap - bound.n));
  // Futility gives a candidate the benefit of the doubt: its differences may turn out `futilityHope` standard errors
  // better than they read now.
  const hope = rule.futilityHope ?? 0;
  const reachable = bounds.map((bound, i) => (hope > 0 ? project(i, cap - bound.n, hope) : projected[i]));
  const hopeful = bounds.map((bound, i) => bound.n < cap && (!futilityOn || reachable[i] <= delta));
  const rank = new Map(order.map((i, position) => [i, position]));
  const targets = starting
    ? order
    : alive.filter((i) => hopeful[i] && bounds[i].U > delta && (!settled || rank.get(i) < rank.get(recommended)));
  const running = new Set(starting ? order : targets.flatMap((i) => [i, indexOf(settings, bounds[i].binding)]));
  const nextRound = order.filter((i) => running.has(i) && bounds[i].n < cap).map((i) => settings[i].id);
  let stop = null;
  if (nextRound.length === 0) {
    if (settled) stop = 'settled';
    else stop = alive.every((i) => bounds[i].n >= cap) ? 'cap' : 'futile';
  }
  return { settled, recommended, projected, hopeful, rank, nextRound, stop };
}

// A setting's state and, where it is out, why, in words.
function describeState(i, settings, { bounds, elimination }, decision, { within, cap, starting }) {
  const { recommended, settled, rank, hopeful } = decision;
  const margin = formatShare(within);
  if (i === recommended) return { state: 'recommended', reason: null };
  if (elimination[i] !== null)
    return { state: 'eliminated', reason: `confidently more than ${margin} worse than ${elimination[i].id}` };
  if (settled && rank.get(i) > rank.get(recommended))
    return { state: 'not needed', reason: `${settings[recommended].id} costs less and is within ${margin}` };
  if (starting || hopeful[i]) return { state: 'candidate', reason: null };
  if (bounds[i].n >= cap)
    return { state: 'futile', reason: `ran the cap of ${cap} rounds and its bound stays above ${margin}` };
  return { state: 'futile', reason: `its bound, projected to ${cap} rounds, stays above ${margin}` };
}

/**
 * A setting's bound if it ran `extra` more rounds, each with every other setting that has rounds left: per pair the
 * same D, SE · √(n / (n + g)) and df grown in proportion ((df + 1)(n + g) / n − 1: n − 1 → n + g − 1 for paired
 * differences), g = the rounds both could still run together. Infinity where a pair has no standard error.
 */
function projectPairs(bound, roundsOf, extra, { cap, levelAt, k, hope = 0 }) {
  const own = Math.max(0, Math.min(extra, cap - bound.n));
  let U = 0;
  for (const pair of bound.pairs) {
    const gained = Math.max(0, Math.min(own, cap - roundsOf.get(pair.id)));
    let upper;
    if (pair.SE === 0) upper = pair.D;
    else if (!Number.isFinite(pair.SE) || pair.n === 0) upper = Infinity;
    else if (gained === 0) upper = pair.upper;
    else {
      const grown = pair.n + gained;
      const c = quantileT(levelAt(grown, k), ((pair.df + 1) * grown) / pair.n - 1);
      upper = pair.D - hope * pair.SE + c * pair.SE * Math.sqrt(pair.n / grown);
    }
    if (upper > U) U = upper;
  }
  return U;
}

/**
 * One comparison's one-sided level at this look: levelAt(n, family) for a pair standing on n common rounds, among a
 * family of settings. Without `rule.spending` every look spends the whole α/(family − 1) (an answer read once: a
 * grid). With it, that α is spent over the looks a pair can have, n = `rule.from` … cap
 * (runner/stats/alpha-spending.js, `rule.spending.shape` and `.kind`): a pair's bound changes only when it gains a
 * round (the paired method; the pooled fit's, nearly so), so the race is wrong at
 * some look at most that often, whatever it stops, drops or runs between looks. Before `rule.from` nothing is spent:
 * no bound, no elimination, no settling. A setting's counted runs never pass the cap (a re-run only replaces
 * a disturbed run that does not count), so neither does a pair; one that did would keep the cap's level.
 */
function levelsOf(rule, { alpha, cap }) {
  const from = rule.from ?? rule.n0;
  const each = (family) => alpha / Math.max(1, family - 1);
  if (!rule.spending) return (n, family) => (n >= from ? each(family) : 0);
  const looks = { from, cap, shape: rule.spending.shape, kind: rule.spending.kind };
  return (n, family) => levelAtLook(each(family), Math.min(n, cap), looks);
}

/**
 * The rounds so far: the round labels that at least two settings ran (the only one, in a budget of one). A label of
 * one setting alone (a re-run made later, on its own) compares nothing and does not count.
 */
function countRounds(settings) {
  const measured = settings.filter(({ values }) => values.length > 0).length;
  const seen = new Map();
  for (const { values } of settings) {
    for (const round of new Set(values.map((value) => String(value.round))))
      seen.set(round, (seen.get(round) ?? 0) + 1);
  }
  let rounds = 0;
  for (const count of seen.values()) if (count >= Math.min(2, measured)) rounds += 1;
  return rounds;
}

function findRoundsNeeded(reaches, most) {
  for (let extra = 1; extra <= most; extra++) if (reaches(extra)) return extra;
  return null;
}

function indexOf(settings, id) {
  return id === null ? -1 : settings.findIndex((setting) => setting.id === id);
}

function checkOptions(settings, { within, cap, rule }) {
  if (!(within > 0)) throw new RangeError(`within must be a positive share (0.05 for 5%), not ${within}`);
  if (!BOUND_METHODS.includes(rule?.method))
    throw new RangeError(`rule.method must be one of ${BOUND_METHODS.join(', ')}, not ${JSON.stringify(rule?.method)}`);
  if (!(Number.isInteger(rule.n0) && rule.n0 >= 2))
    throw new RangeError(`rule.n0 must be a whole number from 2 up, not ${rule.n0}`);
  if (!(Number.isInteger(cap) && cap >= rule.n0))
    throw new RangeError(`cap must be a whole number of rounds, at least rule.n0 (${rule.n0}), not ${cap}`);
  if (rule.spending && !(SPENDING_SHAPES.includes(rule.spending.shape) && SPENDING_KINDS.includes(rule.spending.kind)))
    throw new RangeError(
      `rule.spending must be { shape: ${SPENDING_SHAPES.join('|')}, kind: ${SPENDING_KINDS.join('|')} }, not ${JSON.stringify(rule.spending)}`,
    );
  for (const setting of settings) {
    if (!Number.isFinite(setting.cost))
      throw new RangeError(`setting ${JSON.stringify(setting.id)}: cost must be a number, not ${setting.cost}`);
  }
}

function formatShare(share) {
  return `${Number((100 * share).toFixed(2))}%`;
}
