// What this host can show: per cell, the workload's capacity model (workloads/*.js `model`) with its
// calibration from the same folder. The one entry the report, claims and advice use.
import { parseCpuList } from '../../images/workload/lib/cpuset.js';
import { getWorkload } from '../domain/workloads.js';
import { calibrateGroup, formatCalibrationKey, formatPartKey, selectCalibration } from './calibrate.js';
import { toModelCell } from './model-cell.js';
import { measureTakenCpus } from './host-share.js';
import { usableCpus } from '../domain/usable-cpus.js';

/**
 * @param {{ cell: string, workload: string, values: object, params?: object, runs: object[] }[]} cells
 *   in matrix order; params: the workload's filled-in parameters (run.json's cells); runs: the measured ones
 * @param {{ hostCpus: number|null }} host
 * @returns {Map<string, { calibration: object|null, takenCpus: number, model: Record<string, number>,
 *   modelRange: Record<string, [number, number]> }>}  by cell id; model is {} where the cell has no model (no params,
 *   unknown CPUs, a workload without one, nothing to calibrate on); modelRange: each metric's model at the two ends of
 *   the calibration's interval, low first; takenCpus: what the rest of the host took from the cell (host-share.js),
 *   which the model's CPUs leave out
 */
export function predictCells(cells, { hostCpus }) {
  const groups = new Map();
  for (const cell of cells) {
    const takenCpus = measureTakenCpus(cell.values, cell.runs, {
      allowedCpus: usableCpus(cell.values, hostCpus),
      hostCpus,
    });
    const member = { ...cell, takenCpus, modelCell: toModelCell(cell, hostCpus, { takenCpus }) };
    const key = formatCalibrationKey(cell);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(member);
  }
  const predicted = new Map();
  for (const group of groups.values()) {
    const calibration = calibrateGroup(group);
    for (const member of group)
      predicted.set(member.cell, {
        calibration,
        takenCpus: member.takenCpus,
        model: predictCell(member, calibration),
        modelRange: predictRange(member, calibration),
      });
  }
  return predicted;
}

/**
 * The model's value of each metric it predicts for one cell: { wall_ms: 5984 }, {} when it cannot.
 * @param {{ workload: string, values?: object, modelCell: object|null }} cell  modelCell from model-cell.js toModelCell
 * @param {object|null} calibration  from calibrateGroup (its group's; a `per` calibration's part is taken by values)
 */
export function predictCell({ workload, values, modelCell }, calibration) {
  const model = getWorkload(workload)?.model;
  const own = selectCalibration(calibration, values);
  if (!model || !own || !modelCell) return {};
  return Object.fromEntries(
    Object.entries(model.predict(modelCell, own)).filter(([, value]) => Number.isFinite(value)),
  );
}

/**
 * The model's range of each metric: its value at either end of the calibration's interval (a time grows with
 * the CPU per task, a rate falls with it, so the ends are sorted). {} without bounds (a fit).
 */
export function predictRange(cell, calibration) {
  const own = selectCalibration(calibration, cell.values);
  if (!own?.bounds) return {};
  const [low, high] = ['low', 'high'].map((end) => predictCell(cell, { ...own, ...own.bounds[end] }));
  return Object.fromEntries(
    Object.keys(low)
      .filter((metric) => Number.isFinite(high[metric]))
      .map((metric) => [metric, [Math.min(low[metric], high[metric]), Math.max(low[metric], high[metric])]]),
  );
}

/**
 * B's model value over A's: what the host allows a claim's ratio B / A to be (0.50 for pbkdf2 pool 1 → 4 on
 * 2 CPUs). null when either cell has no model of the metric.
 * @param {{ model?: Record<string, number> }} a  summary cells (report/summary.js puts `model` on each)
 */
export function modelRatio(a, b, metric) {
  const [from, to] = [a?.model?.[metric], b?.model?.[metric]];
  return Number.isFinite(from) && Number.isFinite(to) && from !== 0 ? to / from : null;
}

/**
 * The range of that ratio the calibration allows: B over A at the same end of the calibration's interval (one
 * cost of a task for both cells, so where the cost cancels, as in waves of CPU work, the range is one value); where
 * the two cells have calibrations of their own (a `per` calibration's two parts), every pairing of their ends.
 * null when either cell has no range of the metric.
 */
export function modelRatioRange(a, b, metric) {
  const [from, to] = [a?.modelRange?.[metric], b?.modelRange?.[metric]];
  if (!from || !to || from[0] === 0 || from[1] === 0) return null;
  const per = a.calibration?.per;
  const shared = !per || formatPartKey(a.values ?? {}, per) === formatPartKey(b.values ?? {}, per);
  const ends = shared
    ? [to[0] / from[0], to[1] / from[1]]
    : [to[0] / from[1], to[1] / from[0], to[0] / from[0], to[1] / from[1]];
  return [Math.min(...ends), Math.max(...ends)];
}

/**
 * B over A as the model predicts it on a host with `scale` times the CPUs: every quota, cpuset and the host's CPUs
 * multiplied (a claim's cells stand for the post's hardware through the file's mapping, so all of it scales
 * together). The calibration (the CPU time of a task) stays this folder's. null without a model.
 * @param {{ workload: string, values: object, params?: object, hostCpus?: number|null, calibration?: object }} a
 *   summary cells
 */
export function scaleModelRatio(a, b, metric, scale) {
  const predict = (cell) => {
    if (!cell?.calibration || !cell.params || !Number.isFinite(cell.hostCpus)) return undefined;
    const values = { ...cell.values };
    if (typeof values.cpus === 'number') values.cpus *= scale;
    if (values.cpuset !== undefined && values.cpuset !== null && values.cpuset !== '')
      values.cpuset = `0-${Math.round(parseCpuList(String(values.cpuset)).length * scale) - 1}`;
    // The others keep what they took: a bigger host gives the cell more of what is left.
    const modelCell = toModelCell({ values, params: cell.params }, cell.hostCpus * scale, {
      takenCpus: cell.takenCpus,
    });
    return predictCell({ workload: cell.workload, values: cell.values, modelCell }, cell.calibration)[metric];
  };
  const [from, to] = [predict(a), predict(b)];
  return Number.isFinite(from) && Number.isFinite(to) && from !== 0 ? to / from : null;
}

/** Host sizes, as multiples of this one, at which claims ask the model whether their band is reachable. */
export const SCALES = [1.5, 2, 3, 4, 6, 8, 12, 16, 32];

/**
 * The smallest scale of SCALES at which the model's B / A falls inside (low, high), or passes over it from one side
 * to the other (a step of pinned CPUs can jump across a narrow band that a host in between would land in); null when
 * none does.
 */
export function findScaleReaching(a, b, metric, { low, high }) {
  const side = (ratio) => (ratio <= low ? -1 : ratio >= high ? 1 : 0);
  let previous = scaleModelRatio(a, b, metric, 1);
  for (const scale of SCALES) {
    const ratio = scaleModelRatio(a, b, metric, scale);
    if (ratio !== null && (side(ratio) === 0 || (previous !== null && side(ratio) === -side(previous)))) return scale;
    if (ratio !== null) previous = ratio;
  }
  return null;
}
