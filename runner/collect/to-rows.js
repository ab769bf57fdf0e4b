// A judged run → one runs.csv row and its tasks.csv rows. Field names here ARE the CSV columns.
import { AXES, AXIS_COLUMNS } from '../domain/axes.js';
import { combineCommandRaw } from './command-result.js';
import { combineHttpRaw } from './http-result.js';
import { judgeRun } from './parse-result.js';
import { WORKLOADS, workloadColumns } from '../domain/workloads.js';

/** The columns every runs.csv has, in order; axis columns for env axes go after `node`. */
export { AXIS_COLUMNS };
export const HEAD_COLUMNS = ['experiment', 'cell', 'repetition'];
export const MEASURE_COLUMNS = [
  'status', 'error', 'wall_ms', 'setup_ms', 'container_ms',
  'seen_available_parallelism', 'seen_cpus_length', 'seen_cpu_quota', 'seen_cpuset', 'seen_uv_threadpool_size',
  'pool_threads', 'peak_threads', 'nr_periods', 'throttled_periods', 'throttled_ms', 'cpu_user_ms', 'cpu_system_ms', 'cpu_total_ms',
  'peak_rss_mb', 'cgroup_memory_peak_mb', 'node_version', 'exit_code', 'slot_cpuset', 'started_at', 'finished_at', 'warmup',
];
export const TASK_COLUMNS = ['experiment', 'cell', 'repetition', 'task', 'start_ms', 'end_ms', 'duration_ms', 'process', 'thread', 'warmup'];

// Columns of runs.csv and tasks.csv that hold text or a boolean; every other one holds a number or nothing.
// Text axes are those whose values are strings (workload, cpuset); a workload's columns say their own type.
const TEXT_COLUMNS = ['experiment', 'cell', 'status', 'error', 'seen_cpuset', 'node_version', 'slot_cpuset', 'started_at', 'finished_at', 'process', 'thread'];
const workloadColumnsOfType = (type) => Object.values(WORKLOADS).flatMap((workload) => (workload.columns ?? []).filter((column) => column.type === type).map((column) => column.name));

/** { text, boolean }: which columns results/read-results.js reads back as text and as booleans. */
export const COLUMN_TYPES = {
  text: new Set([...TEXT_COLUMNS, ...AXIS_COLUMNS.filter((axis) => [AXES[axis].value.type].flat().includes('string')), ...workloadColumnsOfType('text')]),
  boolean: new Set(['warmup', ...workloadColumnsOfType('boolean')]),
};

/** The runs.csv header: fixed for a results folder, so every appended row (and a resume) fits it. */
export function runColumns(envAxes = [], workloads = []) {
  return [...HEAD_COLUMNS, ...AXIS_COLUMNS, ...envAxes, ...MEASURE_COLUMNS, ...workloadColumns(workloads)];
}

/** The runs.csv header of one experiment's plan. */
export function planColumns(plan) {
  // userColumns: user_<key> of a script's or command's returned numbers, learnt by the preflight.
  return [...runColumns(plan.envAxes, [...new Set(plan.runs.map((run) => run.workload))]), ...(plan.userColumns ?? [])];
}

/** A pair's (http) or a command's outcome → one raw outcome of a single container's shape. */
function combineOutcome(outcome) {
  const times = { startedAt: outcome.startedAt, finishedAt: outcome.finishedAt };
  if (outcome.pair) return { ...combineHttpRaw(outcome.pair, outcome.loaderLimits), ...times };
  if (outcome.commandRun) return { ...combineCommandRaw(outcome.commandRun), ...times };
  return outcome;
}

/**
 * @param {import('../plan/plan-runs.js').RunSpec} run
 * @param {{ exitCode: number|null, stdout: string, stderr: string, oomKilled: boolean, timedOut: boolean,
 *           containerMs: number, startedAt: Date, finishedAt: Date }} outcome  a container's outcome, or a
 *   server/loader pair's ({ pair, loaderLimits, startedAt, finishedAt }: docker/executor.js)
 */
export function toRows(run, outcome) {
  const raw = combineOutcome(outcome);
  const { status, error, result } = judgeRun(raw, { timeoutMs: run.timeoutMs, memoryBytes: run.limits.memoryBytes });
  const seen = result?.seen ?? {};
  const row = {
    experiment: run.experiment,
    cell: run.cell,
    repetition: run.repetition,
    ...run.values,
    status,
    error,
    wall_ms: round(result?.wall_ms),
    setup_ms: round(result?.setup_ms),
    container_ms: round(raw.containerMs),
    seen_available_parallelism: seen.available_parallelism,
    seen_cpus_length: seen.cpus_length,
    seen_cpu_quota: seen.cpu_quota,
    seen_cpuset: seen.cpuset,
    seen_uv_threadpool_size: seen.uv_threadpool_size,
    pool_threads: result?.pool_threads,
    peak_threads: result?.peak_threads,
    nr_periods: result?.nr_periods,
    throttled_periods: result?.throttled_periods,
    throttled_ms: round(result?.throttled_ms),
    cpu_user_ms: round(result?.cpu_user_ms),
    cpu_system_ms: round(result?.cpu_system_ms),
    cpu_total_ms: round(result?.cpu_total_ms),
    peak_rss_mb: round(result?.peak_rss_mb),
    cgroup_memory_peak_mb: round(result?.cgroup_memory_peak_mb),
    node_version: seen.node_version,
    exit_code: raw.exitCode,
    // `engine` is where the run went, an axis or not (an `engine` axis value is that same name).
    engine: raw.engine ?? run.values.engine,
    slot_cpuset: raw.slotCpuset,
    started_at: raw.startedAt.toISOString(),
    finished_at: raw.finishedAt.toISOString(),
    warmup: run.warmup,
    ...result?.metrics,
  };
  const tasks = (result?.tasks ?? []).map((task) => ({
    experiment: run.experiment,
    cell: run.cell,
    repetition: run.repetition,
    task: task.task,
    start_ms: round(task.start_ms),
    end_ms: round(task.end_ms),
    duration_ms: round(task.end_ms - task.start_ms),
    process: task.process,
    thread: task.thread,
    warmup: run.warmup,
  }));
  return { row, tasks, status };
}

function round(value) {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 1000) / 1000 : undefined;
}
