// Entry of each pool worker thread (worker-pool.js): prepare the work once, say ready, then do the
// work of every request posted to it and post the body back.

import { parentPort, workerData } from 'node:worker_threads';
import { prepareWork } from './work.js';

const work = await prepareWork(workerData.params);
parentPort.on('message', async ({ id }) => {
  try {
    parentPort.postMessage({ type: 'done', id, body: await work() });
  } catch (error) {
    parentPort.postMessage({ type: 'done', id, error: error?.message ?? String(error) });
  }
});
parentPort.postMessage({ type: 'ready' });
