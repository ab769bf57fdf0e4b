// How to read a claim's verdict: its class. The verdict (holds / refuted / inconclusive) says what the interval
// says; the class says what that means for the claim, from what the post's result was measured on (the claim's
// `conditions:`), whether the metric measures the post's quantity (`not_comparable:`) and what this host can
// show (the capacity model, runner/model/).
//
// One rule for both directions: where a comparison stands is decided first, from the claim and the two cells alone,
// before its verdict is read (placeComparison), and a comparison that does not stand where the post's result was
// measured is counted as such whatever its verdict — a hold there says no more for the post than a refutation says
// against it. In order (docs/report.md has them as a table):
//
// - not comparable: the claim says its metric does not measure the post's quantity.
// - outside the post's conditions: a cell lacks the CPUs, the Node.js version or a size the claim's `conditions`
//   name (the post's own, named or implied by it).
// - not reachable here: the claim names no CPUs, and the model puts the expected band out of this host's reach where
//   a host with more CPUs would reach it. A claim whose CPUs the cells have is never "not reachable".
// Only a comparison inside all of that is read by its verdict:
// - holds: the verdict holds.
// - refuted — no model: refuted, with no capacity model of the metric to say what the host allows.
// - contradicted: refuted (a band no host reaches on CPU alone, as "twice the time with 8 threads on 1 core", is no
//   excuse).
// - inconclusive — the host predicts no difference: the runs cannot tell, and the model's ratio sits on the band's
//   edge at 1 (pool 4 → 8 on 2 CPUs: both saturate them; "slightly better" is beyond what CPU capacity decides).
// - inconclusive: the runs cannot tell.
import { findScaleReaching, modelRatio, modelRatioRange } from '../model/predict.js';
import { parseCpuList } from '../../images/workload/lib/cpuset.js';
import { formatRatio } from './format-ratio.js';
import { expectRegions } from './regions.js';
import { checkConditions } from './post-conditions.js';

export const CLASSES = [
  'holds',
  'contradicted',
  'refuted — no model',
  'not reachable here',
  "outside the post's conditions",
  'not comparable',
  'inconclusive — the host predicts no difference',
  'inconclusive',
];

// The model's ratio within this of 1 predicts no difference: a calibration's own spread and the host's CPU
// readings (10 ms ticks) move a ratio of two equal cells by about a percent.
export const NO_DIFFERENCE = 0.02;

/**
 * @param {object} row  a judged claim row (verdict, metric, comparison)
 * @param {{ a: object, b: object, expect: object, conditions?: object, notComparable?: string }} pair  its summary
 *   cells (with model, calibration, params, hostCpus) and the claim's expect, conditions and not_comparable
 * @returns {{ model_ratio: number|null, model_ratio_low: number|null, model_ratio_high: number|null, class: string,
 *   class_note: string, within_conditions: boolean, conditions_unmet: string[] }}  within_conditions: the cells have
 *   the post's CPUs, version and sizes; conditions_unmet: which not, in words
 */
export function classifyClaimRow(row, { a, b, expect, conditions, notComparable }) {
  const model = modelRatio(a, b, row.metric);
  const range = modelRatioRange(a, b, row.metric) ?? (model === null ? null : [model, model]);
  const met = checkConditions(conditions, { a, b });
  const found = {
    model_ratio: model,
    model_ratio_low: range?.[0] ?? null,
    model_ratio_high: range?.[1] ?? null,
    within_conditions: met.unmet.length === 0,
    conditions_unmet: met.unmet,
  };
  const as = (name, note) => ({ ...found, class: name, class_note: note });
  const modelWords =
    model === null ? 'no capacity model of this metric for these cells' : `the model gives ${formatRatio(model)}`;
  if (expect.model !== undefined) return classifyModelClaim(row, { model, modelWords, notComparable, as });
  const [band] = expectRegions(expect);
  const standing = placeComparison({ a, b, metric: row.metric, band, model, range, met, conditions, notComparable });
  if (standing.class) return as(standing.class, standing.note(row));
  const reading = { row, band, model, range, met, modelWords, as };
  if (row.verdict === 'holds') return as('holds', model === null ? '' : modelWords);
  return row.verdict === 'inconclusive' ? classifyOpen(reading) : classifyRefuted(reading);
}

/**
 * Where a comparison stands, from the claim and its two cells alone — never from its measurement, so a hold and a
 * refutation on the same cells stand alike: `class` is set where the verdict cannot count for or against the post
 * (with the words of its note, which may quote the measurement beside the reason), null where the verdict is read.
 * @returns {{ class: string|null, note: (row: object) => string }}
 */
export function placeComparison({ a, b, metric, band, model, range, met, conditions, notComparable }) {
  const modelHere = model === null ? '' : `; the model gives ${formatRatio(model)} here`;
  if (notComparable) return { class: 'not comparable', note: () => notComparable };
  if (met.unmet.length > 0)
    return {
      class: "outside the post's conditions",
      note: () => `${met.unmet.join('; ')}${formatNote(conditions)}${modelHere}`,
    };
  const scale = met.cpus === true || model === null ? null : findOutOfReach(a, b, metric, band, range);
  if (scale !== null)
    return { class: 'not reachable here', note: (row) => describeOutOfReach(row, a, b, model, scale) };
  return { class: null, note: () => '' };
}

// The scale of these CPUs at which the model reaches the band, where this host's cannot: null when the band is within
// reach, on the edge at 1, or beyond any host's (then a refutation is a contradiction).
function findOutOfReach(a, b, metric, band, range) {
  if (isReachable(range, band) || predictsNoDifference(range, band)) return null;
  return findScaleReaching(a, b, metric, band);
}

// `expect: model` asks whether the measurement agrees with the model: its class is its verdict.
function classifyModelClaim(row, { model, modelWords, notComparable, as }) {
  if (notComparable) return as('not comparable', notComparable);
  const named = { holds: 'holds', refuted: 'contradicted', inconclusive: 'inconclusive' }[row.verdict];
  if (model === null)
    return as(row.verdict === 'refuted' ? 'refuted — no model' : named, row.verdict === 'refuted' ? '' : modelWords);
  return as(named, `${modelWords}, measured ${formatRatio(row.comparison.ratio)}`);
}

// The model is the ideal, what the CPUs allow at best: every ratio from no change (1) up to the model's is within this
// host's reach, so a band that meets that stretch is reachable here; only a band beyond it needs another host.
function isReachable(range, band) {
  return Math.max(1, range[1]) > band.low && Math.min(1, range[0]) < band.high;
}

// Inconclusive inside the post's conditions: the host predicts no difference, or the runs cannot tell.
function classifyOpen({ range, band, model, modelWords, as }) {
  if (model !== null && predictsNoDifference(range, band))
    return as(
      'inconclusive — the host predicts no difference',
      `${modelWords}: both cells get the same from the CPUs, the band's edge`,
    );
  return as('inconclusive', modelWords);
}

// Refuted inside the post's conditions: contradicted, with what made the host no excuse; without a model, said so.
function classifyRefuted({ row, band, model, range, met, modelWords, as }) {
  if (model === null) return as('refuted — no model', '');
  if (met.cpus === true)
    return as('contradicted', `${met.cpusText}: the post's own condition is met; ${modelWords} here`);
  if (isReachable(range, band)) {
    const inside = range[1] > band.low && range[0] < band.high;
    return as(
      'contradicted',
      inside
        ? `the model allows ${formatRatio(model)} here, inside the expected band: this host could show it`
        : `the model allows up to ${formatRatio(model)} here, a bigger change than the expected band: this host could show it`,
    );
  }
  if (predictsNoDifference(range, band))
    return as(
      'contradicted',
      `${modelWords}, the band's edge: the host does not stand in the way; measured ${formatRatio(row.comparison.ratio)}`,
    );
  return as('contradicted', `${modelWords} here and stays outside the expected band on hosts up to 32× these CPUs`);
}

// The model's ratio (with its calibration's range) at 1, where a band ends: "below 1", "above 1".
function predictsNoDifference(range, band) {
  const atOne = range[0] <= 1 + NO_DIFFERENCE && range[1] >= 1 - NO_DIFFERENCE;
  const edgeAtOne = band.low === 1 || band.high === 1;
  return atOne && edgeAtOne;
}

function formatNote(conditions) {
  return conditions?.note ? ` — ${conditions.note}` : '';
}

function describeOutOfReach(row, a, b, model, scale) {
  return `this host caps it at ${formatRatio(model)} (measured ${formatRatio(row.comparison.ratio)}); the expected band needs ${describeScale(a, b, scale)}`;
}

/**
 * A claim's overall class from its combinations'. Combinations outside the post's conditions (CPUs, a version or a
 * size it does not stand for) say nothing of the post, whatever their verdicts: they count only when no combination is
 * inside them, and then the claim is outside too. Then: not comparable if the claim is; contradicted if any is; refuted
 * — no model if any is; holds if all do; not reachable here before the inconclusive ones, whose class is "the host
 * predicts no difference" only when every one of them says so.
 */
export function classifyOverall(rows) {
  const inside = rows.filter((row) => row.within_conditions !== false);
  const classes = (inside.length > 0 ? inside : rows).map((row) => row.class);
  if (classes.length === 0) return 'inconclusive';
  for (const first of ['not comparable', 'contradicted', 'refuted — no model'])
    if (classes.includes(first)) return first;
  if (classes.every((each) => each === 'holds')) return 'holds';
  if (classes.includes('not reachable here')) return 'not reachable here';
  if (classes.every((each) => each === "outside the post's conditions")) return "outside the post's conditions";
  const open = classes.filter((each) => each !== 'holds');
  return open.every((each) => each === 'inconclusive — the host predicts no difference')
    ? 'inconclusive — the host predicts no difference'
    : 'inconclusive';
}

// In the cells' own terms: a quota or a cpuset grows with the host; without either, the host's CPU count.
function describeScale(a, b, scale) {
  const quotas = [a, b].map((cell) => cell.values.cpus).filter((value) => typeof value === 'number');
  if (quotas.length > 0)
    return [...new Set(quotas)].map((cpus) => `cpus ${formatRatio(cpus)} → ${formatRatio(cpus * scale)}`).join(', ');
  const pinned = [
    ...new Set(
      [a, b].filter((cell) => cell.values.cpuset).map((cell) => parseCpuList(String(cell.values.cpuset)).length),
    ),
  ];
  if (pinned.length > 0)
    return pinned
      .map((count) => `${count} pinned CPU${count === 1 ? '' : 's'} → ${Math.ceil(count * scale)}`)
      .join(', ');
  return `≥ ${formatRatio(a.hostCpus * scale)} CPUs (this host has ${formatRatio(a.hostCpus)})`;
}
