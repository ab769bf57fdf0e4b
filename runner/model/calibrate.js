// The calibration of a capacity model, measured in the same results folder by a rule fixed before any
// value is seen. Cells that differ only in capacity axes (CAPACITY_AXES) do the same work, so they form one
// calibration group; a different `node`, engine, environment variable or parameter is another group.
//
// Rules (a workload's `model.calibration(params)` names one):
// - sample: the median of the workload's per-run sample (CPU time of one task, of one response) over every
//   measured run of the group's cells with the most usable CPUs (all cells where no quota or cpuset varies).
//   Why these cells: a CPU quota is the one capacity axis that changes the cost of the work itself (CFS stops
//   threads mid-task, and the window's fixed costs weigh more on a small quota: http-cores-threads' 0.5-CPU cells
//   paid 160 ms a response where its 2-CPU cells paid 110), so calibrating on throttled cells would hide the
//   loss the model is there to show, and a median over every cell lands between the two costs and fits
//   neither. Not the least parallel cell: it is often the most throttled one, and one cell is 3–5 runs where
//   a level of the quota axis is 6–20. The median keeps a few runs slowed by a neighbour from moving it. The
//   rule is fixed by the configuration and reads CPU time, never the metric the model predicts. "Most" counts
//   the CPUs a cell was allowed (quota, cpuset, host), not those the rest of the host left it (host-share.js),
//   which vary from run to run and are the model's input, not its calibration. A rule with `per` (http:
//   `workers`) takes that median for each value of those axes apart: where the axis changes the cost of a task
//   itself (a request offloaded to a worker thread costs a message there and back), one median over both would
//   fit neither.
// - fit: least squares (no intercept) of the metric on the terms each cell has (idle memory: a base per
//   process, a cost per thread), over every measured run of the group.
// - lowest: the medians of the cell with the least min(parallelism, usable CPUs) (ties: less parallelism,
//   then the matrix order): the ideal for code the lab cannot see into.
// `bounds` carries the calibration's own uncertainty: the same interval of its median the reports draw
// (runner/stats/median-interval.js), so a model value comes with the range that calibration allows.
import { median } from '../stats/statistics.js';
import { primaryMetrics } from '../domain/metrics.js';
import { intervalOfMedian } from '../stats/median-interval.js';
import { getWorkload } from '../domain/workloads.js';
import { CAPACITY_AXES } from './model-cell.js';

/** Cells with equal keys are one calibration group: same workload, parameters and non-capacity axes. */
export function formatCalibrationKey({ workload, values, params }) {
  const others = Object.entries(values)
    .filter(([axis]) => !CAPACITY_AXES.includes(axis))
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([workload, params ?? null, others]);
}

/**
 * @param {{ cell: string, workload: string, params: object, modelCell: object|null, runs: object[] }[]} group
 *   one calibration group, in matrix order; runs: each cell's measured runs (ok, not warm-up)
 * @returns {object|null}  { kind, cells, runs, ... }: what the workload's model.predict takes; null when it has none
 */
export function calibrateGroup(group) {
  const [first] = group;
  const model = getWorkload(first.workload)?.model;
  const rule = first.params ? model?.calibration(first.params) : null;
  const usable = group.filter((member) => member.modelCell);
  if (!rule || usable.length === 0) return null;
  const measured = usable.flatMap((member) => member.runs.map((run) => ({ run: withCpuTotal(run), member })));
  const calibration = CALIBRATE[rule.kind](rule, usable, measured, first.workload);
  if (!calibration) return null;
  return { kind: rule.kind, ...calibration, describe: describeCalibration(model, { kind: rule.kind, ...calibration }) };
}

// A `per` calibration says each part's value with the axis values it stands for.
function describeCalibration(model, calibration) {
  if (!calibration.per) return model.describe(calibration);
  return Object.entries(calibration.byKey)
    .map(([key, part]) => `${model.describe({ kind: calibration.kind, ...part })} at ${key.replaceAll(',', ' ')}`)
    .join('; ');
}

const CALIBRATE = {
  sample(rule, _cells, measured) {
    const parts = partition(measured, rule.per ?? []);
    const byKey = {};
    for (const [key, points] of parts) {
      const found = sampleMedian(rule, points);
      if (found) byKey[key] = found;
    }
    const keys = Object.keys(byKey);
    if (keys.length === 0) return null;
    // One part (no `per`, the usual case): the calibration is that part's, as it always was.
    if (!rule.per?.length) return byKey[keys[0]];
    return {
      per: rule.per,
      byKey,
      runs: keys.reduce((sum, key) => sum + byKey[key].runs, 0),
      cells: keys.reduce((sum, key) => sum + byKey[key].cells, 0),
    };
  },
  fit(rule, _cells, measured) {
    const points = measured.filter(({ run }) => Number.isFinite(run[rule.metric]));
    if (points.length === 0) return null;
    const names = Object.keys(rule.terms(points[0].member.modelCell));
    const design = points.map(({ member }) => {
      const terms = rule.terms(member.modelCell);
      return names.map((name) => terms[name]);
    });
    const coef = solveLeastSquares(
      points.map(({ run }) => run[rule.metric]),
      design,
    );
    if (!coef) return null;
    return {
      coefficients: Object.fromEntries(names.map((name, i) => [name, coef[i]])),
      runs: points.length,
      cells: countCells(points),
    };
  },
  lowest(rule, cells, _measured, workload) {
    const ran = cells.filter((member) => member.runs.length > 0);
    if (ran.length === 0) return null;
    const rank = ({ modelCell }) => {
      const parallelism = rule.parallelism(modelCell);
      return [Math.min(parallelism, modelCell.allowedCpus), parallelism];
    };
    const lowest = ran.reduce((best, member) => (compareRanks(rank(member), rank(best)) < 0 ? member : best));
    const [medians, lows, highs] = [{}, {}, {}];
    for (const { column } of primaryMetrics(workload)) {
      const sample = lowest.runs.map((run) => run[column]).filter(Number.isFinite);
      if (sample.length === 0) continue;
      medians[column] = median(sample);
      const interval = intervalOfMedian(sample);
      [lows[column], highs[column]] = interval ? [interval.low, interval.high] : [medians[column], medians[column]];
    }
    return {
      base: lowest.modelCell,
      baseCell: lowest.cell,
      medians,
      runs: lowest.runs.length,
      cells: 1,
      bounds: { low: { medians: lows }, high: { medians: highs } },
    };
  },
};

// The median of the rule's per-run sample over the runs of the cells allowed the most CPUs; a part of `per` (below)
// may not hold the group's most, so the most is taken within the part.
function sampleMedian(rule, measured) {
  const most = Math.max(...measured.map(({ member }) => member.modelCell.allowedCpus));
  const points = measured
    .filter(({ member }) => member.modelCell.allowedCpus === most)
    .map((point) => ({ ...point, sample: rule.sample(point.run, point.member.modelCell) }))
    .filter((point) => Number.isFinite(point.sample));
  if (points.length === 0) return null;
  const samples = points.map((point) => point.sample);
  const interval = intervalOfMedian(samples);
  return {
    value: median(samples),
    runs: samples.length,
    cells: countCells(points),
    bounds: interval && { low: { value: interval.low }, high: { value: interval.high }, coverage: interval.coverage },
  };
}

// `per`: axes whose values change the cost of a task itself (http: `workers`, where each request offloaded costs
// a message to a worker and one back); each value of them is calibrated on its own cells.
function partition(measured, per) {
  const parts = new Map();
  for (const point of measured) {
    const key = formatPartKey(point.member.values ?? {}, per);
    if (!parts.has(key)) parts.set(key, []);
    parts.get(key).push(point);
  }
  return parts;
}

/** The part of a `per` calibration a cell belongs to: its values of those axes ("" without `per`). */
export function formatPartKey(values, per) {
  return per.map((axis) => `${axis}=${values[axis] ?? ''}`).join(',');
}

/**
 * The calibration that applies to a cell with these axis values: a `per` calibration's part, else itself.
 * null when the cell's part was not calibrated (none of its runs measured).
 */
export function selectCalibration(calibration, values) {
  if (!calibration?.per) return calibration;
  const part = calibration.byKey[formatPartKey(values ?? {}, calibration.per)];
  return part ? { kind: calibration.kind, ...part } : null;
}

// Folders written before runs.csv had cpu_total_ms have its two parts.
function withCpuTotal(run) {
  if (Number.isFinite(run.cpu_total_ms) || !Number.isFinite(run.cpu_user_ms) || !Number.isFinite(run.cpu_system_ms))
    return run;
  return { ...run, cpu_total_ms: run.cpu_user_ms + run.cpu_system_ms };
}

function compareRanks(a, b) {
  return a[0] - b[0] || a[1] - b[1];
}

function countCells(points) {
  return new Set(points.map(({ member }) => member.cell)).size;
}

// Ordinary least squares through the origin, by the normal equations (Gauss–Jordan with partial pivoting; two
// or three terms, so conditioning is no concern). jStat's matrix helpers break on a one-term design, and this
// is all the linear algebra the lab needs. null when the terms cannot be told apart (one cell, or terms that
// always move together).
export function solveLeastSquares(y, design) {
  const size = design[0].length;
  if (design.length < size) return null;
  const rows = Array.from({ length: size }, (_, i) => [
    ...Array.from({ length: size }, (_, j) => design.reduce((sum, row) => sum + row[i] * row[j], 0)),
    design.reduce((sum, row, k) => sum + row[i] * y[k], 0),
  ]);
  for (let col = 0; col < size; col++) {
    const pivot = rows
      .slice(col)
      .reduce((best, row, k) => (Math.abs(row[col]) > Math.abs(rows[best][col]) ? col + k : best), col);
    [rows[col], rows[pivot]] = [rows[pivot], rows[col]];
    const scale = Math.max(1, ...rows.map((row) => Math.abs(row[col])));
    if (Math.abs(rows[col][col]) < 1e-9 * scale) return null;
    for (let r = 0; r < size; r++) {
      if (r === col) continue;
      const factor = rows[r][col] / rows[col][col];
      for (let c = col; c <= size; c++) rows[r][c] -= factor * rows[col][c];
    }
  }
  return rows.map((row, i) => row[size] / row[i]);
}
