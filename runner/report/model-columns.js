// The capacity model beside every measurement in summary.csv: `model_<metric>` for each primary metric, the
// value runner/model/ predicts for the cell from the folder's own calibration. Kept apart from summary.js so
// its columns and its statistics change independently.
import { predictCells } from '../model/predict.js';

/**
 * Puts `model` ({ metric: value }), `calibration`, `params` and `hostCpus` on each summary cell (claims ask the model
 * what a bigger host would show: runner/model/predict.js scaleModelRatio). Parameters come from run.json's
 * cells (older folders: its config's params of the workload); without run.json there is no model.
 */
export function attachModels(cells, info) {
  const params = new Map((info?.cells ?? []).map((cell) => [cell.cell, cell.params]));
  const paramsOf = (cell) => params.get(cell.cell) ?? info?.config?.params?.[cell.workload];
  const predicted = predictCells(
    cells.map((cell) => ({ ...cell, params: paramsOf(cell) })),
    { hostCpus: info?.host?.cpus ?? null },
  );
  for (const cell of cells)
    Object.assign(cell, { params: paramsOf(cell), hostCpus: info?.host?.cpus ?? null }, predicted.get(cell.cell));
}

export function listModelColumns(metrics) {
  return metrics.map(({ column }) => `model_${column}`);
}

/** { model_wall_ms: 5984.3 }: the cell's model value of each metric, null where it has none. */
export function readModelValues(cell, metrics) {
  return Object.fromEntries(metrics.map(({ column }) => [`model_${column}`, cell.model?.[column] ?? null]));
}
