// Entry of every worker thread (threads.js): load the workload, say ready, wait for go, run this
// thread's hand. A throw here reaches the parent as the Worker's 'error' event.

import { once } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { getWorkload } from '../workloads/index.js';
import { runThreadTasks } from './run-thread-tasks.js';

const { workloadName, params, tasks, process: processIndex, thread } = workerData;
const workload = getWorkload(workloadName);
await workload.prepare?.(params);
const go = once(parentPort, 'message');
parentPort.postMessage({ type: 'ready' });
await go;
const report = (record) => parentPort.postMessage({ type: 'task', record });
await runThreadTasks(workload, params, tasks, { process: processIndex, thread }, report);
parentPort.postMessage({ type: 'done' });
