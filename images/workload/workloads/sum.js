// sum: add the integers 1..n with a plain loop, split into `tasks` contiguous slices that are dealt over
// worker threads and cluster processes like every workload's tasks. Pure CPU on the thread that runs
// the task (no libuv pool), so it shows what workers and cluster buy for synchronous JavaScript.
//
// Doubles are exact only up to 2^53 and 1 + … + 10^9 ≈ 5·10^17 is past that, so the loop adds blocks
// small enough to stay exact in a double, and each block goes into a BigInt. Every slice is checked
// against the closed form (a + b)(b − a + 1) / 2 before it counts: a run that summed wrong fails.
//
// `loop` changes only the shape of the loop, because the shape alone can move the time severalfold: V8 keeps
// a loop bound that is a local variable in a register, but reads one that lives in an enclosing scope (a
// script's top-level `const N = 1e9` read inside a function) from memory on every step. `local` is the plain
// `for` loop with its bounds as parameters (a worker given N in workerData); `closure` is the same loop
// reading its bounds from the enclosing scope. Both add doubles, which round past 2^53, so they are checked
// against the closed form to within the rounding a double sum can have. `closure-main` is the range-sum post's
// own pair of programs: its main thread loops in the closure shape (a function reading the script's top-level
// TEST_NUM), its worker thread and its cluster processes in the local shape (a module-level loop over bounds
// from workerData or the environment).
//
// The post timed spawn and sum together (console.time before `new Worker` or the forks, timeEnd when the
// result came back) and the main thread's loop alone; spawn_and_sum_ms is that span, setup_ms + wall_ms
// where anything was spawned and wall_ms where nothing was.

import cluster from 'node:cluster';
import { isMainThread } from 'node:worker_threads';
import { WorkloadError } from '../workload-error.js';
import { listThreadLoads, shareCpus } from '../lib/capacity.js';
import { round } from '../result.js';

export const description =
  'Sum 1..n with a plain JavaScript loop, split into `tasks` slices: synchronous CPU work on the thread that runs ' +
  'each slice (no libuv pool), the case where worker threads and cluster processes add parallelism.';

// Every task does the same work: the runner compares each run's CPU time per task with its cell's
// (cpu_per_task_dev_pct).
export const fixedWork = true;

export const params = {
  tasks: {
    type: 'integer',
    minimum: 1,
    default: 1,
    examples: [1, 2],
    title: 'Slices',
    description:
      'Contiguous slices of 1..n, dealt round-robin over cluster processes and worker threads like other tasks.',
  },
  n: {
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 10_000_000,
    examples: [10_000_000, 1_000_000_000],
    title: 'n',
    description: 'Sum the integers 1..n (exactly: checked against n(n+1)/2 slice by slice).',
  },
  loop: {
    type: 'string',
    enum: ['blocks', 'local', 'closure', 'closure-main'],
    default: 'blocks',
    examples: ['blocks', 'local', 'closure', 'closure-main'],
    title: 'Loop shape',
    description:
      'blocks: exact (blocks of doubles into a BigInt); local: one plain `for` loop of doubles whose bounds are parameters; ' +
      "closure: the same loop reading its bounds from the enclosing scope, as a function reads a script's top-level `const N`; " +
      "closure-main: closure on the main thread, local on worker threads and in cluster processes (the range-sum post's programs). " +
      'The plain loops round past 2^53 and are checked to within that rounding.',
  },
};

export const columns = [
  {
    name: 'spawn_and_sum_ms',
    unit: 'ms',
    description:
      'what the range-sum post timed: from before the first worker thread or cluster process was spawned to the end of the last slice (setup_ms + wall_ms); with neither, the slices alone (wall_ms)',
  },
];

/** Issues with paths relative to params.sum. */
export function checkParams({ tasks, n }) {
  if (!Number.isInteger(tasks) || !Number.isInteger(n) || n < 1 || tasks <= n) return [];
  return [
    {
      path: ['tasks'],
      message: `expected at most n (${n}) slices, found ${tasks}`,
      hint: `lower tasks, e.g. \`tasks: ${n}\`, or raise n`,
    },
  ];
}

/** Task `index` of `tasks` sums [first, last]; the slices partition 1..n. */
export function sliceOf({ tasks, n }, index) {
  return { first: Math.floor((index * n) / tasks) + 1, last: Math.floor(((index + 1) * n) / tasks) };
}

export function sumRange(first, last) {
  // Any block of `block` numbers, each ≤ last, sums to at most MAX_SAFE_INTEGER.
  const block = Math.max(1, Math.floor(Number.MAX_SAFE_INTEGER / last));
  let total = 0n;
  for (let start = first; start <= last; start += block) {
    const end = Math.min(last, start + block - 1);
    let partial = 0;
    for (let i = start; i <= end; i++) partial += i;
    total += BigInt(partial);
  }
  return total;
}

/** The plain loop, bounds in locals: doubles, rounding once the sum passes 2^53. */
export function sumLocal(first, last) {
  let total = 0;
  for (let i = first; i <= last; i++) total += i;
  return total;
}

/** The same loop reading its bounds from the enclosing scope on every step. */
export function sumClosure(first, last) {
  const from = first;
  const to = last;
  const sum = () => {
    let total = 0;
    for (let i = from; i <= to; i++) total += i;
    return total;
  };
  return sum();
}

/** The shape the post's programs had where this runs: closure on the primary's main thread, local anywhere else. */
export function choosePostShape({ mainThread = isMainThread, primary = cluster.isPrimary } = {}) {
  return mainThread && primary ? 'closure' : 'local';
}

const LOOPS = {
  blocks: sumRange,
  local: sumLocal,
  closure: sumClosure,
  'closure-main': (first, last) => LOOPS[choosePostShape()](first, last),
};

// Synchronous on purpose: a sync task's end is stamped when its loop returns (spread/run-thread-tasks.js).
export function runTask(params, index) {
  const { first, last } = sliceOf(params, index);
  const total = LOOPS[params.loop ?? 'blocks'](first, last);
  const expected = ((BigInt(first) + BigInt(last)) * BigInt(last - first + 1)) / 2n;
  if (!isCorrect(total, expected, last - first + 1)) {
    throw new WorkloadError('ERR_TASK_FAILED', `the sum of ${first}..${last} came out ${total}, expected ${expected}`);
  }
}

// A double sum of `count` terms is off by at most `count` roundings of 2^-53 of the total each.
function isCorrect(total, expected, count) {
  if (typeof total === 'bigint') return total === expected;
  const exact = Number(expected);
  return Math.abs(total - exact) <= count * Math.abs(exact) * 2 ** -53;
}

// The capacity model: slices of equal CPU cost (the folder's median CPU time per slice) on the threads
// they are dealt to (worker threads, or each process's main thread), sharing the usable CPUs.
export const model = {
  calibration: () => ({ kind: 'sample', sample: (run, { params }) => run.cpu_total_ms / params.tasks }),
  predict({ params, cpus, workers, cluster }, { value: sliceMs }) {
    return { wall_ms: sliceMs * shareCpus(listThreadLoads({ tasks: params.tasks, workers, cluster }), { cpus }).last };
  },
  describe: ({ value }) => `CPU time of one slice ${value.toPrecision(3)} ms`,
};

/**
 * @param {{ records: { process: number, thread: number, start: number, end: number }[], t0?: number }} run
 *   absolute times; t0 just before anything was spawned
 */
export function measure({ records, t0 }) {
  if (records.length === 0 || t0 === undefined) return { spawn_and_sum_ms: null };
  const spawned = records.some((record) => record.process > 0 || record.thread > 0);
  const from = spawned ? t0 : Math.min(...records.map((record) => record.start));
  return { spawn_and_sum_ms: round(Math.max(...records.map((record) => record.end)) - from) };
}
