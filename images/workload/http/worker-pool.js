// `workers: N` for http: each request's work goes to one of N worker threads, the least busy one
// (fewest requests in flight; ties go round the pool). The event loop only parses requests and
// writes responses, so it stays free for the fast route. Async work (pbkdf2, argon2) sent to a
// worker still queues on the process's one libuv pool, like it does for the CPU workloads.

import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { WorkloadError } from '../workload-error.js';

const ENTRY = new URL('./pool-thread.js', import.meta.url);

/**
 * @returns {Promise<{ run(): Promise<string>, close(): Promise<void> }>}  resolves once every thread is ready
 */
export async function startWorkerPool({ size, params }) {
  const pending = new Map();
  let nextId = 0;
  let turn = 0;
  const threads = Array.from({ length: size }, (_, index) => {
    const worker = new Worker(ENTRY, { workerData: { params }, stdout: true });
    // Only run.js writes stdout (the result line).
    worker.stdout.pipe(process.stderr);
    const thread = { worker, busy: 0, ready: once(worker, 'message') };
    worker.on('message', (message) => {
      if (message.type !== 'done') return;
      const request = pending.get(message.id);
      pending.delete(message.id);
      thread.busy -= 1;
      if (message.error) request.reject(new Error(message.error));
      else request.resolve(message.body);
    });
    worker.on('error', (error) =>
      failAll(
        new WorkloadError('ERR_TASK_FAILED', `pool worker thread ${index + 1}: ${error.message}`, { cause: error }),
      ),
    );
    return thread;
  });
  const failAll = (error) => {
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  };
  await Promise.all(threads.map((thread) => thread.ready));
  return {
    run() {
      const thread = pickLeastBusy(threads, turn);
      turn = (turn + 1) % threads.length;
      thread.busy += 1;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        thread.worker.postMessage({ id });
      });
    },
    async close() {
      await Promise.all(threads.map(({ worker }) => worker.terminate()));
    },
  };
}

/** The thread with the fewest requests in flight, looking from `start` so ties rotate. */
export function pickLeastBusy(threads, start) {
  let best = threads[start % threads.length];
  for (let offset = 1; offset < threads.length; offset++) {
    const thread = threads[(start + offset) % threads.length];
    if (thread.busy < best.busy) best = thread;
  }
  return best;
}
