// Spread one process's hand of tasks over its threads: the main thread itself (workers 0), or W
// worker threads that each get a round-robin hand and start all of it at once.
//
// Worker threads add parallelism only for synchronous work. Async crypto.pbkdf2 and argon2 calls
// made from a worker thread still queue on the ONE libuv pool of the process (UV_THREADPOOL_SIZE
// threads shared by all of its threads), so W workers running async tasks finish no sooner than the
// main thread alone would. That is a finding this lab exists to show, not something to work around.

import { Worker } from 'node:worker_threads';
import { getWorkload } from '../workloads/index.js';
import { dealRoundRobin } from '../lib/deal.js';
import { awaitReady, followUnit } from './follow-unit.js';
import { runThreadTasks } from './run-thread-tasks.js';

const WORKER_ENTRY = new URL('./worker-thread.js', import.meta.url);

/**
 * Get the threads ready (workload loaded, workers spawned) without starting any task.
 * @returns {Promise<{ start(): Promise<{ records: object[], usages: object[] }>, close(): Promise<void> }>}
 *   start() runs every task once (one batch) and may be called again after it resolves; `records` are that
 *   batch's. `usages` is always empty: threads share their process's usage, which the process measures itself.
 */
export function prepareThreads({ workloadName, params, taskIndexes, workers, processIndex, onTaskEnd }) {
  const options = { workloadName, params, taskIndexes, processIndex, onTaskEnd };
  return workers === 0 ? prepareMainThread(options) : prepareWorkerThreads({ ...options, workers });
}

async function prepareMainThread({ workloadName, params, taskIndexes, processIndex, onTaskEnd }) {
  const workload = getWorkload(workloadName);
  await workload.prepare?.(params);
  return {
    async start() {
      const records = await runThreadTasks(
        workload,
        params,
        taskIndexes,
        { process: processIndex, thread: 0 },
        onTaskEnd,
      );
      return { records, usages: [] };
    },
    async close() {},
  };
}

async function prepareWorkerThreads({ workloadName, params, taskIndexes, workers, processIndex, onTaskEnd }) {
  let records = [];
  const collect = (record) => {
    records.push(record);
    onTaskEnd(record);
  };
  // Every worker is spawned even if its hand is empty: the configuration asked for W threads.
  const units = dealRoundRobin(taskIndexes, workers).map((tasks, index) => {
    const thread = index + 1;
    const workerData = { workloadName, params, tasks, process: processIndex, thread };
    const worker = new Worker(WORKER_ENTRY, { workerData, stdout: true });
    // Only run.js writes stdout (the result line); anything a workload prints goes to stderr.
    worker.stdout.pipe(process.stderr);
    return { worker, ...followUnit(worker, `worker thread ${thread} of process ${processIndex}`, collect) };
  });
  const close = async () => {
    await Promise.all(units.map(({ worker }) => worker.terminate()));
  };
  await awaitReady(units, close);
  return {
    async start() {
      records = [];
      const dones = units.map((unit) => unit.waitDone());
      for (const { worker } of units) worker.postMessage({ type: 'go' });
      await Promise.all(dones);
      return { records, usages: [] };
    },
    close,
  };
}
