// Advice: per CPU budget (a value of the budget axes, per workload), the setting to use, with its bound: "use X: at
// most U% slower than the best tried (95%)". Every cell of the budget is a candidate setting (its knob values: pool,
// workers, cluster, environment axes). The bounds are Hsu's multiple comparisons with the best on the rounds both
// settings ran (stats/mcb.js), the decision choose-setting.js's: the cheapest setting whose bound is within the margin
// is recommended and the budget is settled; while none is, the one with the smallest bound leads and the budget is
// open, with the rounds that would probably settle it. A setting that ran out of memory, or confidently breaks a
// `require`, is out before the comparison. The Node default is compared with the recommendation.
import { AXES } from '../domain/axes.js';
import {
  formatWhere,
  groupByAxes,
  isSet,
  cellMedian,
  roundOf,
  sameValue,
  sampleOf,
  varyingAxes,
} from '../domain/cells.js';
import { findMetric, primaryMetrics } from '../domain/metrics.js';
import { centreInterval } from '../stats/ratio.js';
import { median } from '../stats/statistics.js';
import { chooseSetting, ONE_LOOK_RULE } from './choose-setting.js';
import { compareCells } from './compare-pair.js';
import { judgeFailures } from './failed-settings.js';
import { formatRatio } from './format-ratio.js';

/** Axes that are the CPU budget by default (what a service gets, not what it sets). */
export const BUDGET_AXES = ['cpus', 'cpuset', 'node', 'engine'];

/** Node's own setting: what a service runs with when nobody sets anything. */
export const NODE_DEFAULT = { uv_threadpool_size: AXES.uv_threadpool_size.unset, workers: 0, cluster: 0 };

const DEFAULT_WITHIN = 0.05;

/**
 * When the folder has no cap on its rounds (a grid without adaptive rounds), "how many more rounds" is projected this
 * far at most: a what-if for the next matrix, not a promise of this one.
 */
export const WHAT_IF_ROUNDS = 20;

/**
 * @param {object[]} cells  summary cells ({ cell, values, workload, runs: the measured runs, disturbedRuns })
 * @param {string[]} axes   the folder's axis columns
 * @param {object|undefined} recommend  the experiment's normalized `recommend:` (config/check-recommend.js), or
 *   undefined: advice on the primary metric with the defaults
 * @param {{ cap?: number|null, rule?: object }} [options]  cap: the most rounds a setting may run (the experiment's
 *   `adaptive.max_repetitions`); null when no more rounds will come (the projection is then a what-if); rule: the
 *   decision rule (default ONE_LOOK_RULE: an answer read once; a race passes its own, rounds/race.js raceRule)
 * @returns {object[]} one answer per budget value and workload (none when the matrix has no knob)
 */
export function adviseCells(cells, axes, recommend, { cap = null, rule = ONE_LOOK_RULE } = {}) {
  const { groupAxes, knobs } = splitAxes(cells, axes, recommend);
  if (knobs.length === 0) return [];
  return groupByAxes(cells, groupAxes).map((group) => adviseBudget(group, { groupAxes, knobs, recommend, cap, rule }));
}

/** The budget axes (one answer per combination of their values, per workload) and the knobs (what a person sets). */
export function splitAxes(cells, axes, recommend) {
  const varying = varyingAxes(cells, axes);
  const budgetAxes = recommend?.per ?? BUDGET_AXES.filter((axis) => axes.includes(axis));
  const knobs = varying.filter((axis) => axis !== 'workload' && !budgetAxes.includes(axis));
  const groupAxes = [...budgetAxes.filter((axis) => axes.includes(axis)), 'workload'].filter((axis) =>
    axes.includes(axis),
  );
  return { groupAxes, knobs };
}

function adviseBudget(candidates, { groupAxes, knobs, recommend, cap, rule }) {
  const [first] = candidates;
  const metric = recommend?.metric ?? primaryMetrics(first.workload)[0].column;
  const lowerIsBetter = isLowerBetter(metric);
  const within = recommend?.within ?? DEFAULT_WITHIN;
  const budget = formatWhere(
    first.values,
    groupAxes.filter((axis) => axis !== 'workload'),
  );
  const base = { workload: first.workload, budget, metric, better: lowerIsBetter ? 'lower' : 'higher', within, knobs };
  // Out of memory in any run: listed as failed, never compared or recommended (verdicts/failed-settings.js).
  const failed = candidates
    .map((cell) => judgeFailures(cell, formatSetting(cell, knobs)))
    .filter(Boolean)
    .map((setting) => ({ ...setting, reason: setting.why }));
  const constrained = candidates
    .filter((cell) => !failed.some((setting) => setting.cell === cell))
    .map((cell) => ({ cell, constraints: judgeConstraints(cell, recommend?.require ?? {}) }));
  const breaking = constrained.filter(({ constraints }) => constraints.some((each) => each.state === 'breaks'));
  const eligible = constrained.filter((entry) => !breaking.includes(entry));
  const counted = chooseCounted(
    eligible.map(({ cell }) => cell),
    metric,
  );
  const measured = eligible.filter(({ cell }) => valuesOf(cell, metric, counted).length > 0);
  // Out before the comparison (`outside`: the words list them apart from the settings the bound ranks).
  const outside = [
    ...failed.map((setting) => ({ ...setting, outside: true })),
    ...breaking.map(({ cell, constraints }) => ({
      outside: true,
      ...describeCell(cell, knobs, metric, counted),
      state: 'eliminated',
      reason: constraints
        .filter((each) => each.state === 'breaks')
        .map((each) => each.words)
        .join('; '),
      constraints,
    })),
  ];
  // The bound compares ratios, on the logs: a value of 0 or below has no ratio (a metric that can be 0, or a broken
  // run). No run is left out for its value; the answer says why it has no bound instead.
  const nonPositive = measured.some(({ cell }) => valuesOf(cell, metric, counted).some(({ value }) => value <= 0));
  if (measured.length === 0 || nonPositive) {
    return {
      ...base,
      status: 'open',
      recommended: null,
      bound_pct: null,
      settings: outside,
      best: null,
      as_good: [],
      eliminated: outside,
      cheaper: [],
      rounds_needed: null,
      rounds_left: null,
      next_round: eligible.map(({ cell }) => cell.cell),
      stop: null,
      counted,
      clean_runs: 0,
      reason: nonPositive
        ? `${metric} has values of 0 or below, which a ratio cannot compare: no bound`
        : failed.length > 0 && failed.length === candidates.length
          ? `every setting failed: out of memory (${failed.map((setting) => setting.label).join(', ')})`
          : breaking.length > 0 && measured.length === 0 && failed.length + breaking.length === candidates.length
            ? 'no setting meets every constraint'
            : 'no setting has a measured run yet',
      default: null,
    };
  }
  // Cheapest first (threads and processes, then memory): the order the decision prefers and the tables list.
  const ordered = measured
    .map(({ cell, constraints }) => ({
      cell,
      constraints,
      cost: countResources(cell.values),
      memory: cellMedian(cell, 'peak_rss_mb'),
    }))
    .sort((a, b) => a.cost - b.cost || (a.memory ?? Infinity) - (b.memory ?? Infinity));
  const most = Math.max(...ordered.map(({ cell }) => countRounds(cell, metric, counted)));
  const options = { within, cap: Math.max(cap ?? most + WHAT_IF_ROUNDS, rule.n0, most), rule, lowerIsBetter };
  // The settings go by their labels (knob values, unique in a budget), so the decision's reasons name them as people
  // do.
  const labelOf = new Map(ordered.map(({ cell }) => [cell.cell, formatSetting(cell, knobs)]));
  const cellOfLabel = new Map(ordered.map(({ cell }) => [formatSetting(cell, knobs), cell.cell]));
  const inputs = ordered.map(({ cell, cost }) => ({
    id: labelOf.get(cell.cell),
    cost,
    values: valuesOf(cell, metric, counted),
  }));
  let decision = chooseSetting(inputs, options);
  if (recommend?.prefer === 'best') {
    // `prefer: best`: the best estimate first, whatever it costs — the same decision with the estimates' order as cost.
    const rank = [...decision.comparison.settings]
      .sort((a, b) => (lowerIsBetter ? a.estimate - b.estimate : b.estimate - a.estimate))
      .map((setting) => setting.id);
    decision = chooseSetting(
      inputs.map((input) => ({ ...input, cost: rank.indexOf(input.id) })),
      options,
    );
  }
  const stateOf = new Map(decision.settings.map((state) => [cellOfLabel.get(state.id), state]));
  const estimateOf = new Map(
    decision.comparison.settings.map((setting) => [cellOfLabel.get(setting.id), setting.estimate]),
  );
  const settings = ordered.map(({ cell, constraints, cost, memory }) => {
    const state = stateOf.get(cell.cell);
    return {
      ...describeCell(cell, knobs, metric, counted),
      cost,
      memory,
      constraints,
      state: state.state,
      reason: state.reason,
      bound_pct: state.bound_pct,
      binding: state.binding,
      estimate: estimateOf.get(cell.cell),
    };
  });
  const recommended = settings.find((setting) => setting.label === decision.recommended);
  // The best estimate tried (geometric mean on the log scale): what "the best tried" in the bound refers to.
  const best = settings.reduce((leader, setting) =>
    (lowerIsBetter ? setting.estimate < leader.estimate : setting.estimate > leader.estimate) ? setting : leader,
  );
  const defaults = { ...NODE_DEFAULT, ...(recommend?.default ?? {}) };
  const fallback = candidates.find(
    (cell) =>
      sampleOf(cell, metric).length > 0 &&
      knobs.every((axis) => matchesDefault(axis, cell.values[axis], defaults[axis])),
  );
  const openConstraint = recommended.constraints.some((each) => each.state === 'open');
  const status = decision.status === 'settled' && !openConstraint ? 'settled' : 'open';
  return {
    ...base,
    status,
    recommended,
    bound_pct: recommended.bound_pct,
    settings: [...settings, ...outside],
    best,
    as_good: settings.filter((setting) => setting.bound_pct !== null && setting.bound_pct <= 100 * within),
    eliminated: [...settings.filter((setting) => setting.state === 'eliminated'), ...outside],
    cheaper: settings.slice(0, settings.indexOf(recommended)),
    rounds_needed: status === 'settled' ? null : decision.roundsNeeded,
    // What a race runs next for this budget: the decision's settings, and any setting that has not yet run the
    // start rounds on runs that count (its planned runs disturbed): without them it would never be judged.
    next_round: [
      ...new Set([
        ...decision.nextRound.map((label) => cellOfLabel.get(label)),
        ...eligible
          .map(({ cell }) => cell)
          .filter((cell) => countRounds(cell, metric, counted) < Math.min(rule.n0, cap ?? Infinity))
          .map((cell) => cell.cell),
      ]),
    ],
    rounds_left: cap === null ? null : Math.max(0, cap - recommended.n),
    stop: decision.stop,
    counted,
    clean_runs: settings.reduce((sum, setting) => sum + setting.n, 0),
    reason: openConstraint
      ? `${recommended.label} may not meet ${recommended.constraints
          .filter((each) => each.state === 'open')
          .map((each) => each.words)
          .join('; ')}`
      : null,
    default: describeDefault(fallback, recommended, { metric, lowerIsBetter, knobs, defaults }),
  };
}

/**
 * Which runs the answer rests on: the clean ones (measured: ok, not a warm-up, not disturbed) — unless the host was so
 * busy that no two settings of the budget share a clean round, when no bound could be given at all. Then every ok run
 * counts, disturbed ones too, and the answer says so. A rule on the host's counters, fixed before any value is read.
 * @returns {'clean'|'all'}
 */
export function chooseCounted(cells, metric) {
  const rounds = new Map();
  for (const cell of cells) {
    for (const round of new Set(cell.runs.filter((run) => Number.isFinite(run[metric])).map(roundOf)))
      rounds.set(round, (rounds.get(round) ?? 0) + 1);
  }
  const shared = [...rounds.values()].filter((count) => count >= 2).length;
  const anyDisturbed = cells.some((cell) => (cell.disturbedRuns ?? []).length > 0);
  return shared >= 2 || !anyDisturbed || cells.length < 2 ? 'clean' : 'all';
}

/** A setting's values with their rounds, as the bound compares them. */
export function valuesOf(cell, metric, counted = 'clean') {
  const runs = counted === 'all' ? [...cell.runs, ...(cell.disturbedRuns ?? [])] : cell.runs;
  return runs
    .filter((run) => typeof run[metric] === 'number' && Number.isFinite(run[metric]))
    .map((run) => ({ round: roundOf(run), value: run[metric] }));
}

function countRounds(cell, metric, counted) {
  return new Set(valuesOf(cell, metric, counted).map((value) => value.round)).size;
}

function describeCell(cell, knobs, metric, counted) {
  const values = valuesOf(cell, metric, counted).map((value) => value.value);
  return {
    cell,
    label: formatSetting(cell, knobs),
    median: median(values),
    n: values.length,
  };
}

// A knob value equal to the default's; a knob the cell leaves unset has Node's own value (an environment axis: none).
function matchesDefault(axis, value, wanted) {
  if (wanted === undefined) return !isSet(value);
  const actual = isSet(value) ? value : NODE_DEFAULT[axis];
  return actual !== undefined && sameValue(actual, wanted);
}

function describeDefault(cell, recommended, { metric, lowerIsBetter, knobs, defaults }) {
  const label = knobs.map((axis) => `${axis}=${defaults[axis] ?? 'unset'}`).join(' ');
  if (!cell) return { label, in_matrix: false };
  if (!recommended || recommended.cell === cell)
    return { label, in_matrix: true, cell: cell.cell, is_recommended: recommended?.cell === cell };
  // How many times worse the default is than the recommendation: above 1 it is worse (slower, or a lower rate).
  const comparison = lowerIsBetter
    ? compareCells(recommended.cell, cell, metric)
    : compareCells(cell, recommended.cell, metric);
  return {
    label,
    in_matrix: true,
    cell: cell.cell,
    is_recommended: false,
    comparison,
    lowerIsBetter,
    median: cellMedian(cell, metric),
  };
}

function judgeConstraints(cell, require) {
  return Object.entries(require).map(([metric, bound]) => {
    const interval = centreInterval(sampleOf(cell, metric));
    const [side, limit] = Object.entries(bound)[0];
    const meets = interval && (side === 'below' ? interval.high < limit : interval.low > limit);
    const breaks = interval && (side === 'below' ? interval.low >= limit : interval.high <= limit);
    const state = meets ? 'meets' : breaks ? 'breaks' : 'open';
    const shown = interval ? `[${formatRatio(interval.low)}, ${formatRatio(interval.high)}]` : '(no interval)';
    return {
      metric,
      side,
      limit,
      interval,
      state,
      words: `${metric} ${shown} ${state === 'breaks' ? 'is not' : state === 'meets' ? 'is' : 'may not be'} ${side} ${limit}`,
    };
  });
}

/** Threads and processes a setting starts: each working process has its main thread, its workers and its pool. */
export function countResources(values) {
  const cluster = Number(values.cluster ?? 0);
  const processes = Math.max(1, cluster);
  const perProcess =
    1 + Number(values.workers ?? 0) + Number(values.uv_threadpool_size ?? AXES.uv_threadpool_size.unset);
  return processes * perProcess + (cluster > 0 ? 1 : 0);
}

export function isLowerBetter(metric) {
  const { better, unit } = findMetric(metric);
  return better ? better === 'lower' : unit !== '/s';
}

export function formatSetting(cell, knobs) {
  return knobs.map((axis) => `${axis}=${isSet(cell.values[axis]) ? cell.values[axis] : 'unset'}`).join(' ');
}
