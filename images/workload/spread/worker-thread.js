// Entry of every worker thread (threads.js): load the workload, say ready, then for each `go` run this thread's
// hand and say done (one `go` a batch: a run without batches sends one), until the parent terminates the thread.
// A throw here reaches the parent as the Worker's 'error' event.

import { parentPort, workerData } from 'node:worker_threads';
import { getWorkload } from '../workloads/index.js';
import { runThreadTasks } from './run-thread-tasks.js';

const { workloadName, params, tasks, process: processIndex, thread } = workerData;
const workload = getWorkload(workloadName);
await workload.prepare?.(params);
const report = (record) => parentPort.postMessage({ type: 'task', record });
// Batches follow one another (the parent waits for every unit's done before the next go), so one runs at a time.
let running = Promise.resolve();
parentPort.on('message', (message) => {
  if (message?.type !== 'go') return;
  running = running.then(async () => {
    await runThreadTasks(workload, params, tasks, { process: processIndex, thread }, report);
    parentPort.postMessage({ type: 'done' });
  });
});
parentPort.postMessage({ type: 'ready' });
