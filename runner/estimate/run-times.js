// What one results folder knows about how long a run takes, for a plan's estimate (estimate/estimate.js): each cell's
// median run time (container start to removal: runs.csv's started_at → finished_at, warm-ups and failed runs
// included: they took their time too), and for each calibration group (same workload, parameters and non-capacity
// axes: model/calibrate.js) the capacity model's calibration plus the time a run spends outside the workload's
// wall_ms (container, Node.js start-up, setup). The model then predicts cells the folder never ran: another pool
// size or quota of the same work. Plain data, so the figures shipped with the package are the same shape.
import { calibrateGroup, formatCalibrationKey } from '../model/calibrate.js';
import { toModelCell } from '../model/model-cell.js';
import { median } from '../stats/statistics.js';

/**
 * @param {{ dir: string, rows: object[], info: object|null }} folder  rows: runs.csv's, typed; info: run.json
 * @returns {{ dir: string, cells: Record<string, { ms: number, n: number }>,
 *   groups: Record<string, { workload: string, calibration: object, overhead_ms: number, n: number }> }}
 *   groups keyed by formatCalibrationKey; only groups whose workload has a model that calibrates here
 */
export function summarizeRunTimes({ dir, rows, info }) {
  const byCell = new Map();
  for (const row of rows) {
    const ms = Date.parse(row.finished_at) - Date.parse(row.started_at);
    if (!Number.isFinite(ms) || ms < 0) continue;
    if (!byCell.has(row.cell)) byCell.set(row.cell, []);
    byCell.get(row.cell).push({ ...row, run_ms: ms });
  }
  const cells = Object.fromEntries(
    [...byCell].map(([cell, runs]) => [cell, { ms: median(runs.map((run) => run.run_ms)), n: runs.length }]),
  );
  return { dir, cells, groups: calibrateFolder(byCell, info) };
}

function calibrateFolder(byCell, info) {
  const hostCpus = info?.engines?.[0]?.cpus ?? info?.host?.cpus ?? null;
  const groups = new Map();
  for (const cell of info?.cells ?? []) {
    const runs = (byCell.get(cell.cell) ?? []).filter((run) => run.status === 'ok' && run.warmup !== true);
    const member = {
      cell: cell.cell,
      workload: cell.values.workload,
      values: cell.values,
      params: cell.params,
      modelCell: toModelCell(cell, hostCpus),
      runs,
    };
    const key = formatCalibrationKey(member);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(member);
  }
  const calibrated = {};
  for (const [key, group] of groups) {
    const calibration = calibrateGroup(group);
    // What a run costs beyond the workload's own wall_ms: the model predicts wall_ms, the plan needs the run.
    const outside = group.flatMap((member) =>
      member.runs.filter((run) => Number.isFinite(run.wall_ms)).map((run) => run.run_ms - run.wall_ms),
    );
    if (!calibration || outside.length === 0) continue;
    calibrated[key] = {
      workload: group[0].workload,
      calibration: keepPredictInputs(calibration),
      overhead_ms: median(outside),
      n: outside.length,
    };
  }
  return calibrated;
}

// What the workloads' model.predict reads (workloads/*.js): the value, the fitted coefficients, or the base cell
// and its medians; the rest (counts, bounds, words) is for reports.
function keepPredictInputs({ kind, value, coefficients, base, medians }) {
  return Object.fromEntries(
    Object.entries({ kind, value, coefficients, base, medians }).filter(([, item]) => item !== undefined),
  );
}
