// What a host can give a run at best: equal tasks on chains (threads that each run their tasks one after
// another) sharing `cpus` CPUs fairly. The arithmetic of the workloads' capacity models (workloads/*.js
// `model`); the runner calibrates and calls them (runner/model/). Pure: no clock, no process.
import { dealRoundRobin, listTaskIndexes } from './deal.js';

/**
 * When the first task and the last task end, for chains of equal tasks that start together and share `cpus`
 * CPUs fairly: every running chain gets an equal share, at most `width` CPUs (argon2's lanes: one hash runs
 * on several threads), as CFS shares CPUs; a fractional quota (0.5) slices time the same way. Equal shares
 * make the chains move in step, so N tasks on p chains end in waves: ⌈N/p⌉ waves of k tasks, each taking
 * k / min(k·width, cpus) task-times.
 * @param {number[]} loads  tasks per chain (empty chains are ignored)
 * @param {{ cpus: number, width?: number }} share
 * @returns {{ first: number, last: number }}  in units of one task's CPU time; both 0 with no task
 */
export function shareCpus(loads, { cpus, width = 1 }) {
  const sorted = loads.filter((load) => load > 0).sort((a, b) => a - b);
  if (sorted.length === 0) return { first: 0, last: 0 };
  const rateWith = (running) => Math.min(width, cpus / running);
  let last = 0;
  let done = 0;
  sorted.forEach((load, index) => {
    last += (load - done) / rateWith(sorted.length - index);
    done = load;
  });
  // Every chain starts its first task at 0 and all move at the same rate, so the first tasks end together.
  return { first: 1 / rateWith(sorted.length), last };
}

/**
 * Tasks per thread for work that runs on the thread that starts it (sync calls, JavaScript loops): dealt
 * round-robin over the processes (cluster; the primary runs none) and then over each one's worker threads
 * (the main thread when there are none), as spread/ deals them.
 */
export function listThreadLoads({ tasks, workers = 0, cluster = 0 }) {
  return dealRoundRobin(listTaskIndexes(tasks), Math.max(1, cluster)).flatMap((hand) =>
    dealRoundRobin(hand, Math.max(1, workers)).map((tasksOfThread) => tasksOfThread.length),
  );
}

/**
 * Jobs per libuv pool thread for work that queues on the pool: each process (cluster; the primary runs none)
 * has its own pool of `pool` threads, shared by all of its worker threads; equal jobs leave a queue in order,
 * so each thread ends up with a round-robin share. `jobsPerTask`: pool jobs one task makes, one after another.
 */
export function listPoolLoads({ tasks, pool, cluster = 0, jobsPerTask = 1 }) {
  return dealRoundRobin(listTaskIndexes(tasks), Math.max(1, cluster)).flatMap((hand) =>
    dealRoundRobin(listTaskIndexes(hand.length * jobsPerTask), pool).map((jobs) => jobs.length),
  );
}
