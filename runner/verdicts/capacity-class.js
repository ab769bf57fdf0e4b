// What the host can show, beside a claim's verdict. A claim whose band the capacity model (runner/model/) cannot
// reach on this host is "not reachable here" — refuted or not, the hardware predicted it — with the model's value
// and what the band needs ("cpus 1.5 → 3"); a refutation the model does not explain is "contradicted". The verdict
// itself (holds / refuted / inconclusive, from the interval alone) is unchanged; the class says how to read it.
import { parseCpuList } from '../../images/workload/lib/cpuset.js';
import { findScaleReaching, modelRatio, modelRatioRange } from '../model/predict.js';
import { formatRatio } from './format-ratio.js';
import { expectRegions } from './regions.js';

export const CLASSES = ['holds', 'contradicted', 'not reachable here', 'inconclusive'];

/**
 * @param {object} row  a judged claim row (verdict, metric, comparison)
 * @param {{ a: object, b: object, expect: object }} pair  its summary cells (with model, calibration, params, hostCpus)
 * @returns {{ model_ratio: number|null, model_ratio_low: number|null, model_ratio_high: number|null, class: string, class_note: string }}
 */
export function classifyClaimRow(row, { a, b, expect }) {
  const model = modelRatio(a, b, row.metric);
  const range = modelRatioRange(a, b, row.metric) ?? (model === null ? null : [model, model]);
  const found = { model_ratio: model, model_ratio_low: range?.[0] ?? null, model_ratio_high: range?.[1] ?? null };
  const otherwise = (note) => ({
    ...found,
    class: row.verdict === 'refuted' ? 'contradicted' : row.verdict,
    class_note: note,
  });
  if (expect.model !== undefined) {
    return otherwise(
      model === null
        ? 'no capacity model of this metric for these cells'
        : `the model gives ${formatRatio(model)}, measured ${formatRatio(row.comparison.ratio)}`,
    );
  }
  if (row.verdict === 'holds')
    return { ...found, class: 'holds', class_note: model === null ? '' : `the model gives ${formatRatio(model)}` };
  if (model === null) return otherwise('no capacity model of this metric for these cells');
  const [band] = expectRegions(expect);
  // The model is the ideal, what the CPUs allow at best: every ratio from no change (1) up to the model's is within
  // this host's reach, so a band that meets that stretch is reachable here; only a band beyond it needs another host.
  if (Math.max(1, range[1]) > band.low && Math.min(1, range[0]) < band.high) {
    const inside = range[1] > band.low && range[0] < band.high;
    return otherwise(
      inside
        ? `the model allows ${formatRatio(model)} here, inside the expected band: this host could show it`
        : `the model allows up to ${formatRatio(model)} here, a bigger change than the expected band: this host could show it`,
    );
  }
  const scale = findScaleReaching(a, b, row.metric, band);
  if (scale === null)
    return otherwise(
      `the model gives ${formatRatio(model)} here and stays outside the expected band on hosts up to 32× these CPUs`,
    );
  return {
    ...found,
    class: 'not reachable here',
    class_note: `this host caps it at ${formatRatio(model)} (measured ${formatRatio(row.comparison.ratio)}); the expected band needs ${describeScale(a, b, scale)}`,
  };
}

/** A claim's overall class from its combinations': contradicted if any is, holds if all do, else not reachable or open. */
export function classifyOverall(rows) {
  const classes = rows.map((row) => row.class);
  if (classes.includes('contradicted')) return 'contradicted';
  if (classes.length > 0 && classes.every((each) => each === 'holds')) return 'holds';
  if (classes.includes('not reachable here')) return 'not reachable here';
  return 'inconclusive';
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
