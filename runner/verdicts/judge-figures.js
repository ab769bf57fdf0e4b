// The post's own numbers tested on this host: a claim's `figures:` (a figure its quote prints — "약 6MB" a thread,
// "532ms", "13,285건" a second) against the same quantity here, with its 95% interval. A figure at a cell (`at`) is
// the cell's level (its geometric mean, stats/level-interval.js); one along an axis (`per`) is what one more of the
// axis adds, (mean at b − mean at a) ÷ (b − a). Each gets here ÷ the post with its interval and a verdict against
// the band `within` around 1; where it stands is read as a claim's is, from the post's conditions and the cells
// before the verdict (capacity-class.js), and the figure's `differs` says why it may differ here (the model's or the
// platform's reason, in words).
import { primaryMetrics, findMetric } from '../domain/metrics.js';
import { convertFigure, listFigureQuotes, readFigure } from '../domain/figures.js';
import { formatWhere, groupByAxes, matchesWhere, sameValue, sampleOf, varyingAxes } from '../cells/cell.js';
import { intervalOfDifference, intervalOfLevel } from '../stats/level-interval.js';
import { checkConditions } from './post-conditions.js';

/** `within` when a figure gives none: the post's "about" (약), ±10%. */
export const FIGURE_WITHIN = 0.1;

/**
 * @param {object[]} cells  the folder's summary cells
 * @param {string[]} axes
 * @param {object} claim  normalized, with `figures`
 * @returns {object[]}  one row per figure and combination of the axes it does not fix
 */
export function judgeFigures(cells, axes, claim) {
  const varying = varyingAxes(cells, axes);
  return (claim.figures ?? []).flatMap((figure, index) => {
    const metric = figure.metric ?? claim.metric ?? primaryMetrics(cells[0]?.workload)[0].column;
    const post = readPostFigure(figure, findMetric(metric).unit);
    const base = { figure: index + 1, quote: figure.quote, what: figure.what, metric, post, differs: figure.differs };
    return placeFigure(cells, axes, claim, figure).map(({ a, b, steps }) => {
      const found = measureFigure(a, b, steps, metric, figure.divide ?? 1);
      const fixed = [
        ...Object.keys(claim.where ?? {}),
        ...Object.keys(figure.at ?? {}),
        ...Object.keys(figure.per ?? {}),
      ];
      const where = formatWhere(
        a.values,
        varying.filter((axis) => !fixed.includes(axis)),
      );
      const met = checkConditions(forCells(claim, a, b), { a, b });
      const judged = judgeAgainst(found, post, figure.within ?? FIGURE_WITHIN);
      return {
        ...base,
        where,
        cells: [...new Set([a.cell, b.cell])],
        ...found,
        ...judged,
        within_conditions: met.unmet.length === 0,
        conditions_unmet: met.unmet,
        // Where it stands first, as a claim's comparison: a figure outside the post's conditions is outside whatever
        // its verdict; the verdict is read only inside.
        class: claim.not_comparable
          ? 'not comparable'
          : met.unmet.length > 0
            ? "outside the post's conditions"
            : judged.verdict,
      };
    });
  });
}

// The post's figure in the metric's unit: one figure, or (for `per`) the step between two ("A..B", as the post's
// table prints them) or one figure per step ("약 6MB" a thread).
function readPostFigure(figure, unit) {
  const values = listFigureQuotes(figure.quote).map((text) => convertFigure(readFigure(text), unit, figure.unit));
  if (values.length === 2) {
    const [[, [a, b]]] = Object.entries(figure.per);
    return (values[1] - values[0]) / (Number(b) - Number(a));
  }
  return values[0];
}

// The cells a figure is measured on: each matching cell (at), or each pair along the `per` axis.
function placeFigure(cells, axes, claim, figure) {
  const where = { ...(claim.where ?? {}), ...(figure.at ?? {}) };
  const matching = cells.filter((cell) => matchesWhere(cell.values, where));
  if (!figure.per) return matching.map((cell) => ({ a: cell, b: cell, steps: 0 }));
  const [[axis, [valueA, valueB]]] = Object.entries(figure.per);
  return groupByAxes(
    matching,
    axes.filter((other) => other !== axis),
  ).flatMap((group) => {
    const a = group.find((cell) => sameValue(cell.values[axis], valueA));
    const b = group.find((cell) => sameValue(cell.values[axis], valueB));
    return a && b ? [{ a, b, steps: Number(valueB) - Number(valueA) }] : [];
  });
}

function measureFigure(a, b, steps, metric, divide) {
  if (steps === 0) {
    const level = intervalOfLevel(sampleOf(a, metric).map((value) => value / divide));
    return {
      here: level?.estimate ?? Number.NaN,
      low: level?.low ?? Number.NaN,
      high: level?.high ?? Number.NaN,
      n: [level?.n ?? 0],
    };
  }
  const step = intervalOfDifference(sampleOf(a, metric), sampleOf(b, metric));
  const per = (value) => value / steps / divide;
  return step
    ? { here: per(step.estimate), low: per(step.low), high: per(step.high), n: [step.n_a, step.n_b] }
    : { here: Number.NaN, low: Number.NaN, high: Number.NaN, n: [0, 0] };
}

// Here ÷ the post and its interval against [1 − within, 1 + within]: holds inside, refuted wholly outside.
function judgeAgainst({ here, low, high }, post, within) {
  const ratio = { ratio: here / post, ratio_low: low / post, ratio_high: high / post, band: [1 - within, 1 + within] };
  if (!Number.isFinite(ratio.ratio_low) || !Number.isFinite(ratio.ratio_high))
    return { ...ratio, verdict: 'inconclusive' };
  if (ratio.ratio_low >= 1 - within && ratio.ratio_high <= 1 + within) return { ...ratio, verdict: 'holds' };
  if (ratio.ratio_high < 1 - within || ratio.ratio_low > 1 + within) return { ...ratio, verdict: 'refuted' };
  return { ...ratio, verdict: 'inconclusive' };
}

// A figure's cells meet the post's conditions as a claim's do; where the claim compares CPUs, a figure at one of its
// cells meets the post's CPUs of that side.
function forCells(claim, a, b) {
  const conditions = claim.conditions;
  if (!Array.isArray(conditions?.cpus) || a !== b) return conditions;
  const [[axis, [valueA]]] = Object.entries(claim.compare);
  return { ...conditions, cpus: conditions.cpus[sameValue(a.values[axis], valueA) ? 0 : 1] };
}
