// Advice: per CPU budget (a value of the budget axes, per workload), the setting to use. Every cell of the budget is
// a candidate setting (its knob values: pool, workers, cluster, environment axes). The best is the one with the best
// estimate; every other is compared with it on the ratio of the metric (worse / best, so above 1 is worse) with the
// comparison method of runner/stats, Holm-corrected across the budget: "as good" when the whole interval lies below
// 1 + within (an equivalence judged on the interval, never an absence of evidence), "eliminated" when it lies above,
// "open" otherwise. Constraints (`require`) are judged on each setting's interval of its centre. The recommended
// setting is the cheapest of the as-good ones that confidently meets every constraint; the answer is settled when no
// setting is open. The Node default is compared with the recommendation.
import { AXES } from '../domain/axes.js';
import { formatWhere, groupByAxes, isSet, cellMedian, sameValue, sampleOf, varyingAxes } from '../domain/cells.js';
import { findMetric, primaryMetrics } from '../domain/metrics.js';
import { centreInterval } from '../stats/ratio.js';
import { compareCells } from './compare-pair.js';
import { judgeFailures } from './failed-settings.js';
import { formatRatio } from './format-ratio.js';
import { judgeFamily } from './judge.js';

/** Axes that are the CPU budget by default (what a service gets, not what it sets). */
export const BUDGET_AXES = ['cpus', 'cpuset', 'node', 'engine'];

/** Node's own setting: what a service runs with when nobody sets anything. */
export const NODE_DEFAULT = { uv_threadpool_size: AXES.uv_threadpool_size.unset, workers: 0, cluster: 0 };

const DEFAULT_WITHIN = 0.05;

/**
 * @param {object[]} cells  summary cells ({ cell, values, workload, runs }: the measured runs)
 * @param {string[]} axes   the folder's axis columns
 * @param {object|undefined} recommend  the experiment's normalized `recommend:` (config/check-recommend.js), or
 *   undefined: advice on the primary metric with the defaults
 * @param {{ dropped?: Map<string, { round: number, why: string }> }} [race]  settings a race dropped (rounds/race.js): out of
 *   the comparisons, as the race left them, and listed as eliminated with when and why
 * @returns {object[]} one answer per budget value and workload (none when the matrix has no knob)
 */
export function adviseCells(cells, axes, recommend, { dropped = new Map() } = {}) {
  const varying = varyingAxes(cells, axes);
  const budgetAxes = recommend?.per ?? BUDGET_AXES.filter((axis) => axes.includes(axis));
  const knobs = varying.filter((axis) => axis !== 'workload' && !budgetAxes.includes(axis));
  if (knobs.length === 0) return [];
  const groupAxes = [...budgetAxes.filter((axis) => axes.includes(axis)), 'workload'].filter((axis) =>
    axes.includes(axis),
  );
  return groupByAxes(cells, groupAxes).map((group) => adviseBudget(group, { groupAxes, knobs, recommend, dropped }));
}

function adviseBudget(candidates, { groupAxes, knobs, recommend, dropped }) {
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
    .filter((cell) => !dropped.has(cell.cell))
    .map((cell) => judgeFailures(cell, formatSetting(cell, knobs)))
    .filter(Boolean);
  const measured = candidates.filter(
    (cell) =>
      sampleOf(cell, metric).length > 0 && !dropped.has(cell.cell) && !failed.some((setting) => setting.cell === cell),
  );
  const droppedSettings = candidates
    .filter((cell) => dropped.has(cell.cell))
    .map((cell) => ({
      cell,
      label: formatSetting(cell, knobs),
      median: cellMedian(cell, metric),
      n: sampleOf(cell, metric).length,
      state: 'eliminated',
      why: `dropped by the race after round ${dropped.get(cell.cell).round}: ${dropped.get(cell.cell).why}`,
      constraints: [],
      cost: countResources(cell.values),
    }));
  if (measured.length === 0)
    return {
      ...base,
      status: 'open',
      settings: [],
      recommended: null,
      best: null,
      as_good: [],
      eliminated: failed,
      open: [],
      default: null,
      runs_needed: null,
      reason:
        failed.length > 0
          ? `every setting failed: out of memory (${failed.map((setting) => setting.label).join(', ')})`
          : 'no setting has a measured run yet',
    };
  // The best by the same centre the comparisons use, so that no other setting's ratio to it is below 1.
  const centre = (cell) => centreInterval(sampleOf(cell, metric))?.centre ?? cellMedian(cell, metric);
  const best = measured.reduce((leader, cell) =>
    (lowerIsBetter ? centre(cell) < centre(leader) : centre(cell) > centre(leader)) ? cell : leader,
  );
  // worse / best on the metric's own scale: above 1 is worse whichever way the metric is better.
  const others = measured.filter((cell) => cell !== best);
  const comparisons = others.map((cell) =>
    lowerIsBetter ? compareCells(best, cell, metric) : compareCells(cell, best, metric),
  );
  const judged = judgeFamily(comparisons, [
    { label: 'as-good', low: 0, high: 1 + within },
    { label: 'worse', low: 1 + within, high: Infinity },
  ]);
  const settings = measured.map((cell) => {
    const index = others.indexOf(cell);
    const versus = index < 0 ? null : { ...judged[index], comparison: comparisons[index] };
    const constraints = judgeConstraints(cell, recommend?.require ?? {});
    const onMetric =
      index < 0
        ? 'best'
        : versus.verdict === 'as-good'
          ? 'as-good'
          : versus.verdict === 'worse'
            ? 'eliminated'
            : 'open';
    const breaks = constraints.filter((each) => each.state === 'breaks');
    return {
      cell,
      label: formatSetting(cell, knobs),
      median: cellMedian(cell, metric),
      n: sampleOf(cell, metric).length,
      versus,
      constraints,
      state: breaks.length > 0 ? 'eliminated' : onMetric,
      why:
        breaks.length > 0
          ? breaks.map((each) => each.words).join('; ')
          : onMetric === 'eliminated'
            ? `${formatTimes(versus.comparison, lowerIsBetter)} than the best`
            : null,
      cost: countResources(cell.values),
      memory: cellMedian(cell, 'peak_rss_mb'),
    };
  });
  const contenders = settings.filter((setting) => setting.state === 'best' || setting.state === 'as-good');
  const meeting = contenders.filter((setting) => setting.constraints.every((each) => each.state === 'meets'));
  const byPreference =
    recommend?.prefer === 'best'
      ? meeting.filter((setting) => setting.state === 'best')
      : [...meeting].sort(compareCost);
  const recommended = byPreference[0] ?? null;
  const open = settings.filter(
    (setting) =>
      setting.state === 'open' ||
      (setting.state !== 'eliminated' && setting.constraints.some((each) => each.state === 'open')),
  );
  const needed = open.map((setting) => setting.versus?.runs_needed).filter((value) => value !== undefined);
  const defaults = { ...NODE_DEFAULT, ...(recommend?.default ?? {}) };
  const fallback = candidates.find(
    (cell) =>
      sampleOf(cell, metric).length > 0 &&
      knobs.every((axis) => matchesDefault(axis, cell.values[axis], defaults[axis])),
  );
  return {
    ...base,
    settings,
    best: settings.find((setting) => setting.state === 'best'),
    recommended,
    as_good: contenders,
    eliminated: [...settings.filter((setting) => setting.state === 'eliminated'), ...droppedSettings, ...failed],
    open,
    status: open.length === 0 && recommended ? 'settled' : 'open',
    runs_needed:
      open.length === 0 ? null : needed.length && needed.every((value) => value !== null) ? Math.max(...needed) : null,
    reason: recommended || open.length > 0 ? null : 'no as-good setting meets every constraint',
    default: describeDefault(fallback, recommended, { metric, lowerIsBetter, knobs, defaults }),
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

function compareCost(a, b) {
  return a.cost - b.cost || (a.memory ?? Infinity) - (b.memory ?? Infinity);
}

function isLowerBetter(metric) {
  const { better, unit } = findMetric(metric);
  return better ? better === 'lower' : unit !== '/s';
}

function formatSetting(cell, knobs) {
  return knobs.map((axis) => `${axis}=${isSet(cell.values[axis]) ? cell.values[axis] : 'unset'}`).join(' ');
}

/** "2.0× slower [1.9, 2.1]" (a time) / "1.8× lower [1.6, 2.0]" (a rate): how many times worse, with the interval. */
export function formatTimes(comparison, lowerIsBetter) {
  const { ratio, ci95_low: low, ci95_high: high } = comparison;
  const interval = Number.isFinite(low) ? ` [${formatRatio(low)}, ${formatRatio(high)}]` : '';
  return `${formatRatio(ratio)}× ${lowerIsBetter ? 'slower' : 'lower'}${interval}`;
}
