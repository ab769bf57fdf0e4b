// A judged run → one runs.csv row and its tasks.csv rows, laid out by the column table (domain/columns.js).
import { measureValues, taskRow } from '../domain/columns.js';
import { combineCommandRaw } from './command-result.js';
import { combineHttpRaw } from './http-result.js';
import { judgeRun } from './parse-result.js';

/** A pair's (http) or a command's outcome → one raw outcome of a single container's shape. */
function combineOutcome(outcome) {
  // placement: what a backend that cannot place runs exactly asked for (parse-result.js checkPlacement).
  const times = { startedAt: outcome.startedAt, finishedAt: outcome.finishedAt, placement: outcome.placement };
  if (outcome.pair) return { ...combineHttpRaw(outcome.pair, outcome.loaderLimits), ...times };
  if (outcome.commandRun) return { ...combineCommandRaw(outcome.commandRun), ...times };
  return outcome;
}

/**
 * @param {import('../plan/plan-runs.js').RunSpec} run
 * @param {{ exitCode: number|null, stdout: string, stderr: string, oomKilled: boolean, timedOut: boolean,
 *           containerMs: number, startedAt: Date, finishedAt: Date }} outcome  a container's outcome, or a
 *   server/loader pair's ({ pair, loaderLimits, startedAt, finishedAt }: docker/runs/executor.js)
 */
export function toRows(run, outcome) {
  const raw = combineOutcome(outcome);
  const { status, error, result } = judgeRun(raw, { timeoutMs: run.timeoutMs, memoryBytes: run.limits.memoryBytes });
  const source = { run, raw, result, seen: result?.seen ?? {} };
  const row = {
    experiment: run.experiment,
    cell: run.cell,
    repetition: run.repetition,
    rerun_of: run.rerunOf,
    ...run.values,
    status,
    error,
    ...measureValues(source),
    // `engine` is where the run went, an axis or not (an `engine` axis value is that same name).
    engine: raw.engine ?? run.values.engine,
    // An open loop's rate is the run's whether or not it ended with numbers: a failed run says what it was sent.
    ...(run.params?.load === 'open' ? { arrival_rate: run.params.open.rate } : {}),
    ...result?.metrics,
  };
  const tasks = (result?.tasks ?? []).map((task) => taskRow({ ...source, task }));
  return { row, tasks, status };
}
