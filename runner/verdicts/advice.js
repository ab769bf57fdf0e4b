// Advice: per CPU budget (a value of the budget axes, per workload), the setting to use, with its bound: "use X: at
// most U% slower than the best tried (95%)". Every cell of the budget is a candidate setting (its knob values: pool,
// workers, cluster, environment axes). The bounds are Hsu's multiple comparisons with the best on the rounds both
// settings ran (stats/mcb.js), the decision choose-setting.js's: the cheapest setting whose bound is within the margin
// is recommended and the budget is settled; while none is, the one with the smallest bound leads and the budget is
// open, with the rounds that would probably settle it. A setting that ran out of memory, or confidently breaks a
// `require`, is out before the comparison. The Node default is compared with the recommendation.
import { AXES } from '../domain/axes.js';
import { BUDGET_AXES } from '../cells/axes.js';
import {
  formatWhere,
  groupByAxes,
  isSet,
  cellMedian,
  roundOf,
  sameValue,
  sampleOf,
  varyingAxes,
} from '../cells/cell.js';
import { findMetric, primaryMetrics } from '../domain/metrics.js';
import { describeBudgetCpus, describeSharedBudget } from '../domain/shared-loader.js';
import { centreInterval } from '../stats/ratio.js';
import { median } from '../stats/statistics.js';
import { chooseSetting, ONE_LOOK_RULE } from './choose-setting.js';
import { compareCells } from './compare-pair.js';
import { judgeFailures } from './failed-settings.js';
import { formatRatio } from './format-ratio.js';

/** Node's own setting: what a service runs with when nobody sets anything. */
export const NODE_DEFAULT = { uv_threadpool_size: AXES.uv_threadpool_size.unset, workers: 0, cluster: 0 };

const DEFAULT_WITHIN = 0.05;

/**
 * When the folder has no cap on its rounds (a grid without adaptive rounds), "how many more rounds" is projected this
 * far at most: a what-if for the next matrix, not a promise of this one.
 */
export const WHAT_IF_ROUNDS = 20;

/**
 * @param {object[]} cells  summary cells ({ cell, values, workload, runs: the runs that count, disturbedRuns, delivery:
 *   whether the host gave the cell its CPUs — domain/delivery.js sortCellRuns })
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

/**
 * One budget's answer, in three steps: the table (one record per setting that can be compared, cheapest in
 * production first), the decision on it (choose-setting.js), and the answer's words and figures. Before the table,
 * the settings out of the comparison (out of memory, a broken `require`) are set apart, and a budget the host did not
 * deliver, or with nothing to compare, is answered without a bound.
 */
function adviseBudget(candidates, context) {
  const base = describeBudget(candidates, context);
  const { knobs } = context;
  const { metric } = base;
  const sorted = sortCandidates(candidates, { knobs, metric, require: context.recommend?.require ?? {} });
  // A budget the host did not give its runs is not answered at all (domain/delivery.js): its runs measured another.
  const undelivered = candidates.filter((cell) => cell.delivery?.delivered === false);
  if (undelivered.length > 0) {
    const again = sorted.eligible.map(({ cell }) => cell);
    return describeUndelivered({ ...base, counted: sorted.counted }, candidates, undelivered, { knobs, metric, again });
  }
  const measured = sorted.eligible.filter(({ cell }) => valuesOf(cell, metric).length > 0);
  // The bound compares ratios, on the logs: a value of 0 or below has no ratio (a metric that can be 0, or a broken
  // run). No run is left out for its value; the answer says why it has no bound instead.
  const nonPositive = measured.some(({ cell }) => valuesOf(cell, metric).some(({ value }) => value <= 0));
  if (measured.length === 0 || nonPositive)
    return describeUnanswered(base, candidates, sorted, { measured, nonPositive });
  const today = describeToday(knobs, context.recommend);
  const table = tabulateSettings(measured, { knobs, metric, within: base.within, isToday: today.isToday });
  const decision = decideSetting(table, { ...context, within: base.within, lowerIsBetter: base.better === 'lower' });
  const settings = joinDecision(table, decision, { knobs, metric });
  return describeDecision(base, settings, decision, { ...context, candidates, sorted, today });
}

// What every answer of the budget says, whatever it decides: which budget, on which metric, with what margin, and
// the CPUs it allows against those its runs got, on average over the runs that count.
function describeBudget(candidates, { groupAxes, knobs, recommend }) {
  const [first] = candidates;
  const metric = recommend?.metric ?? primaryMetrics(first.workload)[0].column;
  return {
    workload: first.workload,
    budget: formatWhere(
      first.values,
      groupAxes.filter((axis) => axis !== 'workload'),
    ),
    metric,
    better: isLowerBetter(metric) ? 'lower' : 'higher',
    within: recommend?.within ?? DEFAULT_WITHIN,
    knobs,
    delivery: summarizeDelivery(candidates),
    // http: the load generator could run on the server's CPUs in a run that counts (the host had none to spare
    // beyond the budget): the answer is not the server's alone, and its words must say so (docs/http.md).
    loader_shared: candidates.some((cell) => cell.runs.some((run) => run.loader_shared === true)),
  };
}

/**
 * The settings out before the comparison, and those that go on to it: `failed` (out of memory in any run:
 * verdicts/failed-settings.js), `breaking` (confidently breaks a `require`), `outside` (both, as the words list them
 * apart from the settings the bound ranks), `eligible` (the rest, each with its constraints), and which runs count
 * (`counted`: 'all' when some disturbed run is counted, under --keep-disturbed).
 */
function sortCandidates(candidates, { knobs, metric, require }) {
  const failed = candidates
    .map((cell) => judgeFailures(cell, formatSetting(cell, knobs)))
    .filter(Boolean)
    .map((setting) => ({ ...setting, reason: setting.why }));
  const constrained = candidates
    .filter((cell) => !failed.some((setting) => setting.cell === cell))
    .map((cell) => ({ cell, constraints: judgeConstraints(cell, require) }));
  const breaking = constrained.filter(({ constraints }) => constraints.some((each) => each.state === 'breaks'));
  const eligible = constrained.filter((entry) => !breaking.includes(entry));
  const outside = [
    ...failed.map((setting) => ({ ...setting, outside: true })),
    ...breaking.map(({ cell, constraints }) => ({
      outside: true,
      ...describeCell(cell, knobs, metric),
      state: 'eliminated',
      reason: constraints
        .filter((each) => each.state === 'breaks')
        .map((each) => each.words)
        .join('; '),
      constraints,
    })),
  ];
  const counted = candidates.some((cell) => cell.runs.some((run) => run.disturbed === true)) ? 'all' : 'clean';
  return { failed, breaking, eligible, outside, counted };
}

// A budget with nothing the bound can compare: no measured run, or values a ratio cannot take. Open, with why.
function describeUnanswered(base, candidates, { failed, breaking, eligible, outside, counted }, options) {
  const { measured, nonPositive } = options;
  const reason = nonPositive
    ? `${base.metric} has values of 0 or below, which a ratio cannot compare: no bound`
    : failed.length > 0 && failed.length === candidates.length
      ? `every setting failed: out of memory (${failed.map((setting) => setting.label).join(', ')})`
      : breaking.length > 0 && measured.length === 0 && failed.length + breaking.length === candidates.length
        ? 'no setting meets every constraint'
        : 'no setting has a measured run yet';
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
    reason,
    default: null,
  };
}

// The setting the service runs today (Node's default, or `recommend.default`), and a test of a cell against it.
function describeToday(knobs, recommend) {
  const defaults = { ...NODE_DEFAULT, ...(recommend?.default ?? {}) };
  const isToday = (cell) => knobs.every((axis) => matchesDefault(axis, cell.values[axis], defaults[axis]));
  return { defaults, isToday, source: recommend?.default ? 'recommend.default' : 'node' };
}

/**
 * The table: one record per setting the bound compares, cheapest in production first (orderByCost: the order the
 * decision prefers and the tables list) — its cell, its label (knob values, unique in a budget, so the decision's
 * reasons name it as people do), its constraints, its cost, memory, processes, whether it is today's, and its values.
 */
function tabulateSettings(measured, { knobs, metric, within, isToday }) {
  return orderByCost(measured, { within, isToday }).map((entry) => ({
    ...entry,
    label: formatSetting(entry.cell, knobs),
    values: valuesOf(entry.cell, metric),
  }));
}

// The decision on the table (choose-setting.js), up to the cap of rounds (or a what-if beyond the rounds so far).
function decideSetting(table, { within, cap, rule, lowerIsBetter, recommend }) {
  const most = Math.max(...table.map(({ values }) => countValueRounds(values)));
  const options = { within, cap: Math.max(cap ?? most + WHAT_IF_ROUNDS, rule.n0, most), rule, lowerIsBetter };
  const inputs = table.map(({ label, cost, values }) => ({ id: label, cost, values }));
  const decision = chooseSetting(inputs, options);
  if (recommend?.prefer !== 'best') return decision;
  // `prefer: best`: the best estimate first, whatever it costs — the same decision with the estimates' order as cost.
  // The estimates are on the log scale with the sign the bound compares by (−log for a rate): the least is best.
  const rank = [...decision.comparison.settings].sort((a, b) => a.estimate - b.estimate).map((setting) => setting.id);
  return chooseSetting(
    inputs.map((input) => ({ ...input, cost: rank.indexOf(input.id) })),
    options,
  );
}

// Each record of the table with what the decision says of it: its state, its reason, its bound and its estimate.
function joinDecision(table, decision, { knobs, metric }) {
  const stateOf = new Map(decision.settings.map((state) => [state.id, state]));
  const estimateOf = new Map(decision.comparison.settings.map((setting) => [setting.id, setting.estimate]));
  return table.map(({ cell, label, constraints, cost, memory, processes, today }) => {
    const state = stateOf.get(label);
    return {
      ...describeCell(cell, knobs, metric),
      cost,
      memory,
      processes,
      today,
      constraints,
      state: state.state,
      reason: state.reason,
      bound_pct: state.bound_pct,
      binding: state.binding,
      estimate: estimateOf.get(label),
    };
  });
}

// The answer of a decided budget: the recommendation (settled only when its constraints are met too), the best tried,
// the settings as good, eliminated and cheaper, what a race runs next, and Node's default against the answer.
function describeDecision(base, settings, decision, { candidates, sorted, today, knobs, cap, rule }) {
  const { metric } = base;
  const recommended = settings.find((setting) => setting.label === decision.recommended);
  // The best estimate tried: what "the best tried" in the bound refers to. The estimates are logs with the sign the
  // bound compares by (stats/mcb.js: −log for a rate), so the least is the best either way.
  const best = settings.reduce((leader, setting) => (setting.estimate < leader.estimate ? setting : leader));
  const open = recommended.constraints.filter((each) => each.state === 'open');
  const status = decision.status === 'settled' && open.length === 0 ? 'settled' : 'open';
  return {
    ...base,
    status,
    recommended,
    bound_pct: recommended.bound_pct,
    settings: [...settings, ...sorted.outside],
    best,
    as_good: settings.filter((setting) => setting.bound_pct !== null && setting.bound_pct <= 100 * base.within),
    eliminated: [...settings.filter((setting) => setting.state === 'eliminated'), ...sorted.outside],
    cheaper: settings.slice(0, settings.indexOf(recommended)),
    rounds_needed: status === 'settled' ? null : decision.roundsNeeded,
    next_round: listNextRound(decision, settings, sorted.eligible, { metric, rule, cap }),
    rounds_left: cap === null ? null : Math.max(0, cap - recommended.n),
    stop: decision.stop,
    counted: sorted.counted,
    clean_runs: settings.reduce((sum, setting) => sum + setting.n, 0),
    reason: open.length > 0 ? `${recommended.label} may not meet ${open.map((each) => each.words).join('; ')}` : null,
    // Looked up among every setting of the budget: one with no run that counts is in the matrix all the same.
    default: describeDefault(candidates.find(today.isToday), recommended, {
      ...{ metric, lowerIsBetter: base.better === 'lower', knobs, defaults: today.defaults },
      source: today.source,
    }),
  };
}

// What a race runs next for this budget: the decision's settings, and any setting that has not yet run the start
// rounds on runs that count (its planned runs disturbed): without them it would never be judged.
function listNextRound(decision, settings, eligible, { metric, rule, cap }) {
  const cellOf = (label) => settings.find((setting) => setting.label === label).cell.cell;
  const behind = eligible
    .map(({ cell }) => cell)
    .filter((cell) => countRounds(cell, metric) < Math.min(rule.n0, cap ?? Infinity))
    .map((cell) => cell.cell);
  return [...new Set([...decision.nextRound.map(cellOf), ...behind])];
}

/** A setting's values with their rounds, as the bound compares them: its runs that count (domain/delivery.js). */
export function valuesOf(cell, metric) {
  return cell.runs
    .filter((run) => typeof run[metric] === 'number' && Number.isFinite(run[metric]))
    .map((run) => ({ round: roundOf(run), value: run[metric] }));
}

/**
 * The answer of a budget whose runs did not get its CPUs (a cell the host did not deliver): no recommendation, no
 * bound, the CPUs the runs got instead. A race runs every setting of it again, side by side (so that their rounds
 * pair), up to its cap: the host may grow quiet. A budget this host cannot give the server and its load generator
 * apart (delivery reason 'loader', domain/shared-loader.js) says so instead, and no further round is run: no quieter
 * moment gives the host another CPU.
 */
function describeUndelivered(base, candidates, undelivered, { knobs, metric, again }) {
  const settings = candidates.map((cell) => {
    const missing = cell.delivery?.delivered === false;
    return {
      ...describeCell(cell, knobs, metric),
      state: missing ? 'not measured' : 'measured',
      reason: missing ? formatDelivery(cell.delivery) : null,
      bound_pct: null,
      delivery: cell.delivery ?? null,
    };
  });
  const crowded = undelivered.find((cell) => cell.delivery.reason === 'loader');
  return {
    ...base,
    status: 'not measured',
    recommended: null,
    bound_pct: null,
    settings,
    best: null,
    as_good: [],
    eliminated: [],
    cheaper: [],
    rounds_needed: null,
    rounds_left: null,
    next_round: crowded ? [] : again.map((cell) => cell.cell),
    stop: null,
    clean_runs: settings.reduce((sum, setting) => sum + setting.n, 0),
    delivery: { ...summarizeDelivery(undelivered), reason: crowded ? 'loader' : 'host' },
    reason: crowded
      ? describeSharedBudget(describeBudgetCpus(crowded.values), crowded.delivery.hostCpus)
      : describeShortHost(settings, summarizeDelivery(undelivered)),
    default: null,
  };
}

// "not measured here: the host gave these runs about 1 CPU of 2".
function describeShortHost(settings, given) {
  const missing = settings.filter((setting) => setting.state === 'not measured');
  const whose =
    missing.length === settings.length ? 'these runs' : `the runs of ${missing.map((s) => s.label).join(', ')}`;
  return `not measured here: the host gave ${whose} about ${formatCpus(given.got)} of ${formatCpus(given.cpus, { unit: false })}`;
}

/**
 * The CPUs asked and got over some cells' runs, each run weighed alike: { cpus, got, runs, short } — short: some cell's
 * runs got less than the threshold share (domain/delivery.js).
 */
export function summarizeDelivery(cells) {
  const read = cells.map((cell) => cell.delivery).filter((delivery) => delivery && delivery.runs > 0);
  const runs = read.reduce((sum, delivery) => sum + delivery.runs, 0);
  const weigh = (key) =>
    runs > 0 && read.every((delivery) => delivery[key] !== null)
      ? read.reduce((sum, delivery) => sum + delivery[key] * delivery.runs, 0) / runs
      : null;
  return { cpus: weigh('cpus'), got: weigh('got'), runs, short: read.some((delivery) => delivery.short === true) };
}

function formatDelivery(delivery) {
  if (delivery.reason === 'loader') return "the load generator shared the server's CPUs (loader_shared)";
  const runs = `its ${delivery.runs} run${delivery.runs === 1 ? '' : 's'}`;
  if (delivery.got === null) return `${runs} did not get the CPUs asked`;
  return `${runs} got about ${formatCpus(delivery.got)} of ${formatCpus(delivery.cpus, { unit: false })}`;
}

/** 1.01 → "1 CPU", 1.06 → "1.1 CPUs": two significant digits, as much as the host's ticks tell. */
export function formatCpus(cpus, { unit = true } = {}) {
  if (cpus === null || !Number.isFinite(cpus)) return unit ? 'fewer CPUs' : 'those asked';
  const shown = Number(cpus.toPrecision(2));
  return unit ? `${shown} CPU${shown === 1 ? '' : 's'}` : String(shown);
}

function countRounds(cell, metric) {
  return countValueRounds(valuesOf(cell, metric));
}

function countValueRounds(values) {
  return new Set(values.map((value) => value.round)).size;
}

function describeCell(cell, knobs, metric) {
  const values = valuesOf(cell, metric).map((value) => value.value);
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

function describeDefault(cell, recommended, { metric, lowerIsBetter, knobs, defaults, source }) {
  const label = knobs.map((axis) => `${axis}=${defaults[axis] ?? 'unset'}`).join(' ');
  if (!cell) return { label, source, in_matrix: false };
  if (!recommended || recommended.cell === cell)
    return { label, source, in_matrix: true, cell: cell.cell, is_recommended: recommended?.cell === cell };
  if (sampleOf(cell, metric).length === 0)
    return { label, source, in_matrix: true, cell: cell.cell, is_recommended: false };
  // How many times worse the default is than the recommendation: above 1 it is worse (slower, or a lower rate).
  const comparison = lowerIsBetter
    ? compareCells(recommended.cell, cell, metric)
    : compareCells(cell, recommended.cell, metric);
  return {
    label,
    source,
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

/**
 * The settings in the order of what they cost in production, cheapest first, each with its `cost` (a rank: equal
 * costs share one) — what a service pays for, not what a lab can count:
 * 1. **processes** (countProcesses): each is a Node.js runtime with its own heap, event loop and connections, what a
 *    cluster multiplies and a replica count pays for;
 * 2. **measured memory**: the median peak_rss_mb (every process of the setting), in steps of `within` of the
 *    memory limit — the limit is what a container is given and billed for, and a smaller difference does not change
 *    the limit it needs (no limit known: steps of `within` of the largest median);
 * 3. **the setting the service runs today** (Node's default, or `recommend.default`): at equal cost a change buys
 *    nothing, so today's comes first and the answer is "keep it" when it is within `within` of the best.
 * Idle pool threads are no cost: a libuv thread that waits costs a stack of address space and no CPU, so pool 1 is
 * not "cheaper" than pool 4. Equal costs keep the matrix order.
 * @param {{ cell: object, constraints: object[] }[]} entries
 * @param {{ within: number, isToday: (cell: object) => boolean }} options
 */
export function orderByCost(entries, { within, isToday }) {
  const withMemory = entries.map((entry) => ({ ...entry, memory: cellMedian(entry.cell, 'peak_rss_mb') }));
  const known = withMemory.map((entry) => entry.memory).filter((memory) => memory !== null);
  const limits = withMemory.map((entry) => entry.cell.memoryMb).filter((limit) => Number.isFinite(limit));
  const step = within * (limits.length ? Math.min(...limits) : known.length ? Math.max(...known) : 1);
  const keyed = withMemory.map((entry, index) => ({
    ...entry,
    processes: countProcesses(entry.cell.values),
    memoryStep: entry.memory === null ? Infinity : Math.round(entry.memory / step),
    today: isToday(entry.cell),
    index,
  }));
  const compare = (a, b) => a.processes - b.processes || a.memoryStep - b.memoryStep || b.today - a.today;
  const sorted = keyed.sort((a, b) => compare(a, b) || a.index - b.index);
  return sorted.map((entry) => {
    const { memoryStep, index, ...rest } = entry;
    return { ...rest, cost: sorted.findIndex((other) => compare(other, entry) === 0) };
  });
}

/** The processes a setting runs: one, or a cluster's workers and their primary. Worker threads are not processes. */
export function countProcesses(values) {
  const cluster = Number(values.cluster ?? 0);
  return cluster > 0 ? cluster + 1 : 1;
}

export function isLowerBetter(metric) {
  const { better, unit } = findMetric(metric);
  return better ? better === 'lower' : unit !== '/s';
}

export function formatSetting(cell, knobs) {
  return knobs.map((axis) => `${axis}=${isSet(cell.values[axis]) ? cell.values[axis] : 'unset'}`).join(' ');
}
