// A judged run → one runs.csv row and its tasks.csv rows. Field names here ARE the CSV columns.
import { judgeRun } from './parse-result.js';
import { workloadColumns } from './workload-columns.js';

/** The columns every runs.csv has, in order; axis columns for env axes go after `node`. */
export const AXIS_COLUMNS = ['workload', 'cpus', 'cpuset', 'uv_threadpool_size', 'workers', 'cluster', 'node'];
export const HEAD_COLUMNS = ['experiment', 'cell', 'repetition'];
export const MEASURE_COLUMNS = [
  'status', 'error', 'wall_ms', 'setup_ms', 'container_ms',
  'seen_available_parallelism', 'seen_cpus_length', 'seen_cpu_quota', 'seen_cpuset', 'seen_uv_threadpool_size',
  'pool_threads', 'peak_threads', 'nr_periods', 'throttled_periods', 'throttled_ms', 'cpu_user_ms', 'cpu_system_ms', 'cpu_total_ms',
  'peak_rss_mb', 'cgroup_memory_peak_mb', 'node_version', 'exit_code', 'started_at', 'finished_at', 'warmup',
];
export const TASK_COLUMNS = ['experiment', 'cell', 'repetition', 'task', 'start_ms', 'end_ms', 'duration_ms', 'process', 'thread', 'warmup'];

/** The runs.csv header: fixed for a results folder, so every appended row (and a resume) fits it. */
export function runColumns(envAxes = [], workloads = []) {
  return [...HEAD_COLUMNS, ...AXIS_COLUMNS, ...envAxes, ...MEASURE_COLUMNS, ...workloadColumns(workloads)];
}

/** The runs.csv header of one experiment's plan. */
export function planColumns(plan) {
  // userColumns: user_<key> of a script's or command's returned numbers, learnt by the preflight.
  return [...runColumns(plan.envAxes, [...new Set(plan.runs.map((run) => run.workload))]), ...(plan.userColumns ?? [])];
}

/**
 * @param {import('../plan/plan-runs.js').RunSpec} run
 * @param {{ exitCode: number|null, stdout: string, stderr: string, oomKilled: boolean, timedOut: boolean,
 *           containerMs: number, startedAt: Date, finishedAt: Date }} raw
 */
export function toRows(run, raw) {
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
