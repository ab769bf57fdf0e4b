// Every ratio the capacity model gives beside a measured one, and whether the measurement could have proven it
// wrong: a cell whose CPU budget was below what the rest of the host left free got the CPUs the model assumed
// whatever the others did, so its measured ratio tests the model; a cell allowed more than was free got what the
// others left it, which the model reads from the same runs (runner/model/host-share.js), so there "within 10%" says
// little. Shared by docs/model-check's page (scripts/model-check-doc.js) and docs/findings.md.
import { median } from '../../runner/stats/statistics.js';
import { usableCpus } from '../../runner/domain/usable-cpus.js';
import { modelRatio } from '../../runner/model/predict.js';
import { summarizeCells } from '../../runner/report/summary.js';
import { judgeSteps } from '../../runner/verdicts/steps.js';

/** A measured ratio agrees with the model's when it is within this of it (measured ÷ model within 1 ± 0.1). */
export const MODEL_AGREES = 0.1;

/** A budget counts as below what was free when it leaves at least this many CPUs of the free ones unused. */
export const HEADROOM_CPUS = 0.1;

/**
 * What a cell was allowed against what the rest of the host left free, over its measured runs: the others' CPU-s a
 * second (host_other_cpu_ms, and a load generator's loader_cpu_ms where recorded) and the cell's own.
 * @returns {{ allowed: number|null, others: number|null, own: number|null, free: number|null, spare: boolean|null }}
 *   spare: the budget was below what was free (null: the folder cannot say)
 */
export function measureHeadroom(cell, hostCpus) {
  const allowed = usableCpus(cell.values, hostCpus);
  const perSecond = (column) =>
    cell.runs.map((run) => run[column] / run.wall_ms).filter((value) => Number.isFinite(value));
  const others = perSecond('host_other_cpu_ms');
  // A load generator on CPUs of its own (loader_shared false) takes nothing the cell could have had.
  const loader = cell.runs
    .filter((run) => run.loader_shared !== false)
    .map((run) => run.loader_cpu_ms / run.wall_ms)
    .filter((value) => Number.isFinite(value));
  const own = perSecond('cpu_total_ms');
  // A load generator beside the server whose CPU the runs did not record (folders before loader_cpu_ms): what was
  // free is not known.
  const unrecordedLoader =
    loader.length === 0 && cell.runs.some((run) => Number.isFinite(run.loader_cpus) && run.loader_shared !== false);
  if (!hostCpus || allowed === null || others.length === 0 || unrecordedLoader)
    return { allowed, others: null, own: own.length ? median(own) : null, free: null, spare: null };
  const taken = Math.max(0, median(others)) + (loader.length ? median(loader) : 0);
  const free = hostCpus - taken;
  return { allowed, others: taken, own: own.length ? median(own) : null, free, spare: allowed + HEADROOM_CPUS <= free };
}

/**
 * One row per pair of cells a model ratio is given for (each step between neighbouring values of an axis, on each
 * primary metric): the measured ratio with its interval, the model's, whether they agree, and whether both cells had
 * spare capacity.
 * @param {object} folder  readResults
 */
export function listModelRatios(folder) {
  const { cells } = summarizeCells(folder);
  const hostCpus = folder.info?.host?.cpus ?? null;
  const byId = new Map(cells.map((cell) => [cell.cell, cell]));
  return judgeSteps(cells, folder.axes).flatMap((step) => {
    const [a, b] = step.cells.map((id) => byId.get(id));
    const model = modelRatio(a, b, step.metric);
    if (model === null || !Number.isFinite(step.comparison.ratio)) return [];
    const headroom = [a, b].map((cell) => measureHeadroom(cell, hostCpus));
    return [describeAgreement(step, model, headroom)];
  });
}

/** A measured comparison beside its model ratio: { …, model, off, agrees, spare }. */
export function describeAgreement(row, model, headroom = []) {
  const off = row.comparison.ratio / model;
  return {
    ...row,
    model,
    off,
    agrees: Math.abs(off - 1) <= MODEL_AGREES,
    headroom,
    spare: headroom.length ? headroom.every((each) => each.spare === true) : null,
  };
}

/**
 * "12 of 18 within 10% of the measured ratio; where both cells' budgets were below what the host had free (the model
 * can be wrong there): 4 of 6".
 */
export function countAgreement(rows) {
  const within = (list) => list.filter((row) => row.agrees).length;
  const spare = rows.filter((row) => row.spare === true);
  const unknown = rows.filter((row) => row.spare === null).length;
  const pct = Math.round(MODEL_AGREES * 100);
  const all = `${within(rows)} of ${rows.length} model ratios within ${pct}% of the measured ratio`;
  const unsaid = unknown ? `; ${unknown} on cells whose free CPUs the runs did not record (a load generator's)` : '';
  return spare.length === rows.length && rows.length > 0
    ? `${all}, every one on cells whose budgets were below what the host had free`
    : `${all}; where both cells' budgets were below what the host had free (the model can be wrong there): ${spare.length === 0 ? 'none' : `${within(spare)} of ${spare.length}`}${unsaid}`;
}
