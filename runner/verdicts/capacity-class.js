// How to read a claim's verdict: its class. The verdict (holds / refuted / inconclusive) says what the interval
// says; the class says what that means for the claim, from what the post's result was measured on (the claim's
// `conditions:`), whether the metric measures the post's quantity (`not_comparable:`) and what this host can
// show (the capacity model, runner/model/). The rules, in order (docs/report.md has them as a table):
//
// - not comparable: the claim says its metric does not measure the post's quantity; whatever the verdict.
// - holds: the verdict holds.
// - outside the post's conditions: refuted at a Node.js version or a size the post's result does not stand for (a
//   version effect, not a refutation of the post).
// - not reachable here: refuted on cells that lack the post's CPUs (`conditions.cpus`), or — where the claim names
//   none — the model puts the expected band out of this host's reach and a host with more CPUs would reach it. A
//   claim whose CPUs this host gives is never "not reachable" for them.
// - refuted — no model: refuted where the conditions are met, with no capacity model of the metric to say what the
//   host allows.
// - contradicted: refuted where the conditions are met and the model does not put the band out of this host's
//   reach (a band no host reaches on CPU alone, as "twice the time with 8 threads on 1 core", is no excuse).
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
 *   the post's version and sizes (its CPUs aside: those decide "not reachable here"); conditions_unmet: which not
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
  if (notComparable) return as('not comparable', notComparable);
  if (expect.model !== undefined) {
    const named = { holds: 'holds', refuted: 'contradicted', inconclusive: 'inconclusive' }[row.verdict];
    return as(
      model === null && row.verdict === 'refuted' ? 'refuted — no model' : named,
      model === null
        ? row.verdict === 'refuted'
          ? ''
          : modelWords
        : `${modelWords}, measured ${formatRatio(row.comparison.ratio)}`,
    );
  }
  if (row.verdict === 'holds') return as('holds', model === null ? '' : modelWords);
  // A refutation at another version or size than the post's, or on fewer (or other) CPUs, cannot count against it.
  if (met.unmet.length > 0 && row.verdict === 'refuted')
    return as("outside the post's conditions", `${met.unmet.join('; ')}${note(conditions)}`);
  const lacksCpus = met.cpus === false && row.verdict === 'refuted';
  if (lacksCpus) return as('not reachable here', `${met.cpusText}${note(conditions)}; ${modelWords} here`);
  // "refuted — no model" says all its note would.
  if (model === null) return row.verdict === 'refuted' ? as('refuted — no model', '') : as('inconclusive', modelWords);
  const [band] = expectRegions(expect);
  const reading = { row, a, b, band, model, range, met, modelWords, as };
  return row.verdict === 'inconclusive' ? classifyOpen(reading) : classifyRefuted(reading);
}

// The model is the ideal, what the CPUs allow at best: every ratio from no change (1) up to the model's is within this
// host's reach, so a band that meets that stretch is reachable here; only a band beyond it needs another host.
function isReachable(range, band) {
  return Math.max(1, range[1]) > band.low && Math.min(1, range[0]) < band.high;
}

// Inconclusive: the host predicts no difference, or the band is out of its reach (never on the post's own CPUs).
function classifyOpen({ row, a, b, band, model, range, met, modelWords, as }) {
  if (predictsNoDifference(range, band))
    return as(
      'inconclusive — the host predicts no difference',
      `${modelWords}: both cells get the same from the CPUs, the band's edge`,
    );
  const scale = isReachable(range, band) || met.cpus === true ? null : findScaleReaching(a, b, row.metric, band);
  return scale === null
    ? as('inconclusive', modelWords)
    : as('not reachable here', describeOutOfReach(row, a, b, model, scale));
}

// Refuted where the post's conditions are met (or named none): contradicted unless the model says a bigger host would
// show the band.
function classifyRefuted({ row, a, b, band, model, range, met, modelWords, as }) {
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
  const scale = findScaleReaching(a, b, row.metric, band);
  if (scale === null)
    return as('contradicted', `${modelWords} here and stays outside the expected band on hosts up to 32× these CPUs`);
  return as('not reachable here', describeOutOfReach(row, a, b, model, scale));
}

// The model's ratio (with its calibration's range) at 1, where a band ends: "below 1", "above 1".
function predictsNoDifference(range, band) {
  const atOne = range[0] <= 1 + NO_DIFFERENCE && range[1] >= 1 - NO_DIFFERENCE;
  const edgeAtOne = band.low === 1 || band.high === 1;
  return atOne && edgeAtOne;
}

function note(conditions) {
  return conditions?.note ? ` — ${conditions.note}` : '';
}

function describeOutOfReach(row, a, b, model, scale) {
  return `this host caps it at ${formatRatio(model)} (measured ${formatRatio(row.comparison.ratio)}); the expected band needs ${describeScale(a, b, scale)}`;
}

/**
 * A claim's overall class from its combinations'. Combinations outside the post's conditions (a version or size it
 * does not stand for) say nothing of the post: they count only when no combination is inside them. Then: not comparable
 * if the claim is; contradicted if
 * any is; refuted — no model if any is; holds if all do; not reachable here before the inconclusive ones, whose
 * class is "the host predicts no difference" only when every one of them says so.
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
