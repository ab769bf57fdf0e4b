// Every column that every runs.csv and tasks.csv has, once: its name, type, unit, what it means, where its value
// comes from, and how later stages read it (`metric`: a claim may name it on any workload; `seen`: its median is
// carried into summary.csv, in the order of the number). Adding a column is one entry here: collect/to-rows.js
// writes it, results/read-results.js types it, docs/columns.md describes it, claims may name it. A column that needs
// its whole cell (`derive`) is computed by the reader instead, and never stored.
// Axis columns are the axis table's (axes.js), a workload's own columns its module's (images/workload/workloads/).
import { median } from '../stats/statistics.js';
import { AXES, AXIS_COLUMNS } from './axes.js';
import { isDisturbed, measureInterference, MIN_ALLOWED_MS } from './interference.js';
import { WORKLOADS, workloadColumns } from './workloads.js';

/**
 * @typedef {object} Column
 * @property {string} name
 * @property {'number'|'text'|'boolean'} type
 * @property {string} [unit]
 * @property {string} doc               docs/columns.md
 * @property {(from: RowSource) => unknown} [value]  the row's value (runs.csv measures; tasks.csv columns)
 * @property {boolean} [metric]         a claim's `metric` may name it on any workload
 * @property {number} [seen]            its median goes into summary.csv (the number orders those columns)
 * @property {(cellRuns: object[]) => unknown[]} [derive]  a column computed when a folder is read, from the
 *   typed rows of one cell (in runs.csv order): one value per row
 */
/** @typedef {{ run: object, raw: object, result: object|undefined, seen: object, task?: object }} RowSource */

const round = (value) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 1000) / 1000 : undefined;
const fromResult =
  (key) =>
  ({ result }) =>
    round(result?.[key]);
const interferencePct = ({ result }) => round(measureInterference(result).interferencePct);

/** runs.csv, before the axes. */
const RUN_HEAD = [
  { name: 'experiment', type: 'text', doc: "the experiment's name" },
  {
    name: 'cell',
    type: 'text',
    doc: 'stable id of the cell (a hash of the axis values, params, env, memory limit, Node major): the same cell has the same id in every folder, so resume and compare match on it',
  },
  { name: 'repetition', type: 'number', doc: '1, 2, … within the cell (warm-up runs count apart)' },
  {
    name: 'rerun_of',
    type: 'number',
    doc: "set on a run made because an earlier run of its cell was disturbed: that run's `repetition` (this one takes the next free number); empty otherwise",
  },
];

/** runs.csv, after the axes and before the workloads' own columns. */
const RUN_MEASURES = [
  {
    name: 'status',
    type: 'text',
    doc: '`ok`, `failed` (non-zero exit, or no valid result line), `timeout`, `oom` (killed by the memory limit), `not_ready` (http with `start`: your service never answered its `port`/`ready` within `readyTimeout`)',
  },
  {
    name: 'error',
    type: 'text',
    doc: 'what went wrong: exit code and the last lines of stderr, the timeout, the memory limit',
  },
  {
    name: 'wall_ms',
    type: 'number',
    unit: 'ms',
    metric: true,
    value: fromResult('wall_ms'),
    doc: "the workload's own time, measured inside the container from the start of its first task to the end of its last (http: the measured period; command: the engine's start → exit of each task, summed, see docs/own-code.md)",
  },
  {
    name: 'setup_ms',
    type: 'number',
    unit: 'ms',
    metric: true,
    value: fromResult('setup_ms'),
    doc: 'inside the container, before the first task: spawning workers, forking the cluster',
  },
  {
    name: 'container_ms',
    type: 'number',
    unit: 'ms',
    metric: true,
    value: ({ raw }) => round(raw.containerMs),
    doc: "the runner's time for the run: create, start, wait, inspect (container start-up included)",
  },
  {
    name: 'seen_available_parallelism',
    type: 'number',
    metric: true,
    seen: 1,
    value: ({ seen }) => seen.available_parallelism,
    doc: '`os.availableParallelism()` in the container: honours the cpuset, **ignores the quota**',
  },
  {
    name: 'seen_cpus_length',
    type: 'number',
    metric: true,
    value: ({ seen }) => seen.cpus_length,
    doc: "`os.cpus().length`: the host's CPUs, whatever the limits",
  },
  {
    name: 'seen_cpu_quota',
    type: 'number',
    metric: true,
    seen: 2,
    value: ({ seen }) => seen.cpu_quota,
    doc: "the cgroup's CPU quota in CPUs (`cpu.cfs_quota_us / cpu.cfs_period_us`, or `cpu.max`); empty = unlimited",
  },
  {
    name: 'seen_cpuset',
    type: 'text',
    value: ({ seen }) => seen.cpuset,
    doc: 'the effective cpuset (`cpuset.effective_cpus`), as the kernel prints it (`0-1`)',
  },
  {
    name: 'seen_uv_threadpool_size',
    type: 'number',
    metric: true,
    value: ({ seen }) => seen.uv_threadpool_size,
    doc: 'the pool size libuv uses: `UV_THREADPOOL_SIZE` parsed as libuv does (C `atoi`, clamped to 1…1024; 4 when unset)',
  },
  {
    name: 'pool_threads',
    type: 'number',
    metric: true,
    seen: 4,
    value: ({ result }) => result?.pool_threads,
    doc: 'libuv pool threads actually present (threads named `libuv-worker`; empty where libuv is older than 1.50 and does not name them, e.g. Node 20)',
  },
  {
    name: 'peak_threads',
    type: 'number',
    metric: true,
    seen: 3,
    value: ({ result }) => result?.peak_threads,
    doc: "peak OS threads of the workload's processes (sampled from `/proc`)",
  },
  {
    name: 'nr_periods',
    type: 'number',
    metric: true,
    value: ({ result }) => result?.nr_periods,
    doc: 'CFS periods during the workload (cgroup `cpu.stat` delta)',
  },
  {
    name: 'throttled_periods',
    type: 'number',
    metric: true,
    value: ({ result }) => result?.throttled_periods,
    doc: 'CFS periods in which the container was throttled',
  },
  {
    name: 'throttled_ms',
    type: 'number',
    unit: 'ms',
    metric: true,
    seen: 5,
    value: fromResult('throttled_ms'),
    doc: 'time throttled, summed over CPUs (so it can exceed `wall_ms`)',
  },
  {
    name: 'cpu_user_ms',
    type: 'number',
    unit: 'ms',
    metric: true,
    seen: 6,
    value: fromResult('cpu_user_ms'),
    doc: 'user CPU time of everything in the container during the workload (split from system time at timer ticks: reads low for bursty work)',
  },
  {
    name: 'cpu_system_ms',
    type: 'number',
    unit: 'ms',
    metric: true,
    value: fromResult('cpu_system_ms'),
    doc: 'system CPU time, likewise',
  },
  {
    name: 'cpu_total_ms',
    type: 'number',
    unit: 'ms',
    metric: true,
    value: fromResult('cpu_total_ms'),
    doc: 'CPU time of everything in the container during the workload, exact (cgroup v1 `cpuacct.usage`, v2 `usage_usec`)',
  },
  {
    name: 'host_other_cpu_ms',
    type: 'number',
    unit: 'ms',
    metric: true,
    value: ({ result }) => round(measureInterference(result).hostOtherCpuMs),
    doc: "CPU time the rest of the host used during the same window as `cpu_total_ms`: the host's /proc/stat (host-wide inside a container; user + nice + system + irq + softirq + steal, in 10 ms ticks) less the run's own CPU time (http: the load generator's too; command: the window runs from the watcher's first reading of the command's cgroup to its last, less the watcher's own time). \"The rest\" is everyone: other programs, the Docker engine, the runner itself, and under `--slots` the runs of the neighbour slots. Tick rounding can put it a little below 0 on a quiet host; empty where /proc/stat could not be read",
  },
  {
    name: 'interference_pct',
    type: 'number',
    unit: '%',
    metric: true,
    value: interferencePct,
    doc: `what the others took from the run: \`host_other_cpu_ms\` beyond the CPUs the run could not have used anyway (host CPUs − allowed, over the window), as a percentage of the CPU time the run was allowed in the window (window × min(quota, cpuset size, host CPUs)). A run allowed every CPU of the host shares all of it; a 0.5-CPU run on 2 CPUs shares nothing until the others need more than 1.5 CPUs. Empty when the run was allowed less than ${MIN_ALLOWED_MS} ms of CPU time in all (tick rounding alone would move it by more than ±4%). \`disturbed\` compares it with the experiment's \`disturbed_above\``,
  },
  {
    name: 'peak_rss_mb',
    type: 'number',
    unit: 'MiB',
    metric: true,
    value: fromResult('peak_rss_mb'),
    doc: "sum over the workload's processes of their peak RSS (MiB)",
  },
  {
    name: 'cgroup_memory_peak_mb',
    type: 'number',
    unit: 'MiB',
    metric: true,
    value: fromResult('cgroup_memory_peak_mb'),
    doc: "the container's peak memory as the cgroup counts it (MiB; page cache included)",
  },
  {
    name: 'node_version',
    type: 'text',
    value: ({ seen }) => seen.node_version,
    doc: 'the Node.js that ran (`process.version`)',
  },
  {
    name: 'exit_code',
    type: 'number',
    metric: true,
    value: ({ raw }) => raw.exitCode,
    doc: "the container's exit code",
  },
  {
    name: 'slot_cpuset',
    type: 'text',
    value: ({ raw }) => raw.slotCpuset,
    doc: "the CPUs of the slot the run was given (`--slots`, docs/scale.md); with one slot, all of the engine's CPUs",
  },
  {
    name: 'started_at',
    type: 'text',
    value: ({ raw }) => raw.startedAt.toISOString(),
    doc: 'ISO-8601 UTC, runner side',
  },
  {
    name: 'finished_at',
    type: 'text',
    value: ({ raw }) => raw.finishedAt.toISOString(),
    doc: 'ISO-8601 UTC, runner side',
  },
  {
    name: 'warmup',
    type: 'boolean',
    value: ({ run }) => run.warmup,
    doc: '`true` for warm-up runs (left out of every statistic)',
  },
  {
    name: 'disturbed',
    type: 'boolean',
    value: (from) => isDisturbed(interferencePct(from), from.run.disturbedAbove),
    doc: "`true` when `interference_pct` is above the experiment's `disturbed_above`: the row stays, the statistics leave it out (unless `--keep-disturbed`) and the cell gets one more run, up to `max_reruns` (docs/report.md). Decided on the interference alone, never on the measured values; `false` also when the interference is unknown",
  },
  {
    name: 'batches',
    type: 'number',
    metric: true,
    value: ({ result }) => result?.batches?.count,
    doc: "with the experiment's `batches:`, how many measured batches ran in the container (after `batches.warmup` warm-up batches): `wall_ms` is their median (or mean, `batches.aggregate`) and the CPU counters (`cpu_*_ms`, `throttled_*`, `nr_periods`, `host_other_cpu_ms`) are per batch; each batch's tasks are in tasks.csv (`batch`). Empty for a run without batches",
  },
  {
    name: 'speed_probe_ms',
    type: 'number',
    metric: true,
    unit: 'ms',
    value: ({ result }) => round(result?.speed_probe?.wall_ms),
    doc: "with the experiment's `speed_probe: true`: the wall time of a fixed piece of single-thread CPU work (one `pbkdf2Sync` of 500,000 HMAC-SHA-256 rounds, ≈ 0.1 s of CPU on the 2-vCPU VM this was built on) run in the container just before the workload, outside every time the run reports: how fast the CPU was just before the run, a covariate for the analysis (docs/bench-noise.md). Under a quota below 1 CPU it includes throttling. Empty without the probe, and for `command`",
  },
  {
    name: 'speed_probe_cpu_ms',
    type: 'number',
    metric: true,
    unit: 'ms',
    value: ({ result }) => round(result?.speed_probe?.cpu_ms),
    doc: "the process's CPU time over the same probe (`process.cpuUsage`): its wall time less the time others on the host (or the quota) took from it",
  },
];

const listFixedWorkWorkloads = () => Object.keys(WORKLOADS).filter((name) => WORKLOADS[name].fixedWork);

/**
 * Computed when a results folder is read (results/read-results.js), not stored in runs.csv: each needs every run
 * of its cell, so a value written when a run ended would depend on the order the runs happened to go in.
 */
const RUN_DERIVED = [
  {
    name: 'cpu_per_task_dev_pct',
    type: 'number',
    unit: '%',
    derive: deviateFromCellCpu,
    doc: `for workloads whose every task does the same work (${listFixedWorkWorkloads().join(', ')}): how far the run's CPU time per task (\`cpu_total_ms\` ÷ tasks) is from the median over its cell's ok runs (warm-ups aside, disturbed ones in), in percent (+5 = 5% more CPU time for the same work). A CPU slowed by a busy neighbour (a shared core, cache or memory bandwidth) shows here even when the host's counters cannot; tasks are fixed within a cell, so this is \`cpu_total_ms\` against the cell's median`,
  },
];

/** tasks.csv, whole. */
const TASK_TABLE = [
  { name: 'experiment', type: 'text', value: ({ run }) => run.experiment, doc: 'as in runs.csv' },
  { name: 'cell', type: 'text', value: ({ run }) => run.cell, doc: 'as in runs.csv' },
  { name: 'repetition', type: 'number', value: ({ run }) => run.repetition, doc: 'as in runs.csv' },
  { name: 'task', type: 'number', value: ({ task }) => task.task, doc: "the task's number within its run" },
  {
    name: 'start_ms',
    type: 'number',
    unit: 'ms',
    value: ({ task }) => round(task.start_ms),
    doc: 'when the task started, in ms since the workload started (before any worker or process was spawned); in a run with `batches:`, since its batch started',
  },
  {
    name: 'end_ms',
    type: 'number',
    unit: 'ms',
    value: ({ task }) => round(task.end_ms),
    doc: 'when it ended, same clock: sorting by it shows the waves',
  },
  {
    name: 'duration_ms',
    type: 'number',
    unit: 'ms',
    value: ({ task }) => round(task.end_ms - task.start_ms),
    doc: '`end_ms - start_ms`',
  },
  {
    name: 'process',
    type: 'text',
    value: ({ task }) => task.process,
    doc: '0 the single or primary process, 1…N the cluster processes',
  },
  { name: 'thread', type: 'text', value: ({ task }) => task.thread, doc: '0 a main thread, 1…N worker threads' },
  { name: 'warmup', type: 'boolean', value: ({ run }) => run.warmup, doc: 'as in runs.csv' },
  {
    name: 'requests',
    type: 'number',
    value: ({ task }) => task.requests,
    doc: 'http: a row is one second of the measured period (`task` its number, `start_ms`/`end_ms` its edges since the period opened), and this is how many GET /work requests of that second were answered — by when they were due (`load: open`) or sent (a closed loop). Empty for other workloads',
  },
  {
    name: 'p50_ms',
    type: 'number',
    unit: 'ms',
    value: ({ task }) => round(task.p50_ms),
    doc: "http: the median response time of that second's requests (from their due time with `load: open`)",
  },
  { name: 'p99_ms', type: 'number', unit: 'ms', value: ({ task }) => round(task.p99_ms), doc: 'http: their p99' },
  { name: 'max_ms', type: 'number', unit: 'ms', value: ({ task }) => round(task.max_ms), doc: 'http: their slowest' },
  {
    name: 'cpu_ms',
    type: 'number',
    unit: 'ms',
    value: ({ task }) => round(task.cpu_ms),
    doc: "http: the server container's CPU time in that second of its window (cgroup, every process and thread): `cpu_ms ÷ requests` is a response's CPU time, second by second",
  },
  {
    name: 'batch',
    type: 'number',
    value: ({ task }) => task.batch,
    doc: "in a run with `batches:`, the batch the task ran in: 1 … `batches.count` measured, 0 and below warm-up (0 the last before the measured ones); its `start_ms` and `end_ms` are then from the batch's own start (the first task starts near 0). Empty in a run without batches. Readers of a run's waves take batch 1 (`isFirstPass`)",
  },
];

export { AXIS_COLUMNS };
export const RUN_HEAD_COLUMNS = RUN_HEAD;
export const RUN_MEASURE_COLUMNS = RUN_MEASURES;
export const RUN_DERIVED_COLUMNS = RUN_DERIVED;
export const TASK_TABLE_COLUMNS = TASK_TABLE;

export const HEAD_COLUMNS = RUN_HEAD.map((column) => column.name);
export const MEASURE_COLUMNS = RUN_MEASURES.map((column) => column.name);
export const TASK_COLUMNS = TASK_TABLE.map((column) => column.name);

/**
 * The numeric columns every run reports, whatever its workload: what a claim's `metric` may name besides the
 * workload's own.
 */
export const RUN_METRICS = RUN_MEASURES.filter((column) => column.metric).map((column) => column.name);

/** Medians of what the process saw, carried into summary.csv because they explain the results. */
export const SEEN_COLUMNS = RUN_MEASURES.filter((column) => column.seen)
  .sort((a, b) => a.seen - b.seen)
  .map((column) => column.name);

const workloadColumnsOfType = (type) =>
  Object.values(WORKLOADS).flatMap((workload) =>
    (workload.columns ?? []).filter((column) => column.type === type).map((column) => column.name),
  );
const namesOfType = (type) =>
  [...RUN_HEAD, ...RUN_MEASURES, ...RUN_DERIVED, ...TASK_TABLE]
    .filter((column) => column.type === type)
    .map((column) => column.name);

/**
 * { text, boolean, number }: which columns results/read-results.js reads back as text, as booleans and as numbers; any
 * other column is a number where it reads as one, else text.
 */
export const COLUMN_TYPES = {
  // Text axes are those whose values are strings (workload, cpuset; cpus may be written "1500m" but is a number once
  // normalized: its columnType); a workload's columns say their own type.
  text: new Set([
    ...namesOfType('text'),
    ...AXIS_COLUMNS.filter((axis) => [AXES[axis].columnType ?? AXES[axis].value.type].flat().includes('string')),
    ...workloadColumnsOfType('text'),
  ]),
  boolean: new Set([...namesOfType('boolean'), ...workloadColumnsOfType('boolean')]),
};
// The columns the runner writes as numbers (and never as text for any workload): a reader takes any other text there
// as a damaged file.
COLUMN_TYPES.number = new Set(
  [...namesOfType('number'), ...workloadColumnsOfType('number')].filter((name) => !COLUMN_TYPES.text.has(name)),
);

/**
 * The runs.csv header: fixed for a results folder, so every appended row (and a resume) fits it. Env axes go after
 * the built-in axes.
 */
export function runColumns(envAxes = [], workloads = []) {
  return [...HEAD_COLUMNS, ...AXIS_COLUMNS, ...envAxes, ...MEASURE_COLUMNS, ...workloadColumns(workloads)];
}

/** The runs.csv header of one experiment's plan. */
export function planColumns(plan) {
  // userColumns: user_<key> of a script's or command's returned numbers, learnt by the preflight.
  return [...runColumns(plan.envAxes, [...new Set(plan.runs.map((run) => run.workload))]), ...(plan.userColumns ?? [])];
}

function deviateFromCellCpu(cellRuns) {
  // A run that failed may have stopped short of its work: it has no CPU time per task.
  const cpu = (run) =>
    WORKLOADS[run.workload]?.fixedWork && run.status === 'ok' && Number.isFinite(run.cpu_total_ms)
      ? run.cpu_total_ms
      : undefined;
  const sample = cellRuns
    .filter((run) => run.warmup !== true)
    .map(cpu)
    .filter((value) => value !== undefined);
  const middle = median(sample);
  return cellRuns.map((run) =>
    cpu(run) === undefined || !(middle > 0) ? undefined : round(100 * (cpu(run) / middle - 1)),
  );
}

/** A run's measured columns, from the table. */
export function measureValues(source) {
  return Object.fromEntries(
    RUN_MEASURES.filter((column) => column.value).map((column) => [column.name, column.value(source)]),
  );
}

/**
 * A task of a run's first measured batch, or of a run without batches: the one pass of its tasks a reader of one run's
 * tasks (its waves, its order of completion) looks at.
 */
export function isFirstPass(task) {
  return task.batch === undefined || task.batch === null || task.batch === 1;
}

/** One tasks.csv row. */
export function taskRow(source) {
  return Object.fromEntries(TASK_TABLE.map((column) => [column.name, column.value(source)]));
}
