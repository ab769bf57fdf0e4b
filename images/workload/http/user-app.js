// The user's own HTTP app in the three shapes of the http workload:
//   single   this process serves it on the app port
//   cluster  every cluster process does the same (node:cluster shares the port; see cluster.js)
//   workers  W worker threads each run the app; this thread accepts the connections and deals them
//            out (the least busy thread first), passing each connection's bytes to and fro. Node has
//            no port sharing between threads, but an http.Server serves any Duplex emitted as a
//            'connection' (documented), so the app runs unchanged in every thread.
// The export is a handler, a factory, or a framework's instance (app-shape.js tells them apart by shape).

import net from 'node:net';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { WorkloadError } from '../workload-error.js';
import { loadUserExport } from '../user/load-export.js';
import { buildUserServer } from './app-shape.js';
import { APP_PORT, HOST } from './endpoints.js';
import { pickLeastBusy } from './worker-pool.js';

const THREAD_ENTRY = new URL('./user-app-thread.js', import.meta.url);

/** @returns {Promise<{ server: import('node:net').Server, close(): Promise<void> }>} listening */
export async function startUserApp({ app, workers }) {
  const server = workers > 0 ? await startConnectionDealer(app, workers) : await createUserServer(app);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(APP_PORT, HOST, resolve);
  });
  return {
    server,
    async close() {
      server.closeAllConnections?.();
      server.close();
      await server.closeThreads?.();
    },
  };
}

/** The user's app as an http.Server, not listening, whatever its shape (app-shape.js). */
export async function createUserServer(app) {
  const { server } = await buildUserServer(await loadUserExport(app, { anyValue: true }), app);
  return server;
}

async function startConnectionDealer(app, size) {
  const threads = await Promise.all(Array.from({ length: size }, (_, index) => startAppThread(app, index + 1)));
  let nextId = 0;
  let turn = 0;
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    const thread = pickLeastBusy(threads, turn);
    turn = (turn + 1) % threads.length;
    const id = nextId++;
    thread.busy += 1;
    thread.sockets.set(id, socket);
    thread.worker.postMessage({ type: 'open', id });
    socket.on('data', (chunk) => thread.worker.postMessage({ type: 'data', id, chunk }));
    socket.on('end', () => thread.worker.postMessage({ type: 'end', id }));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      if (!thread.sockets.delete(id)) return;
      thread.busy -= 1;
      thread.worker.postMessage({ type: 'close', id });
    });
  });
  server.closeThreads = () => Promise.all(threads.map(({ worker }) => worker.terminate()));
  return server;
}

async function startAppThread(app, number) {
  const worker = new Worker(THREAD_ENTRY, { workerData: { app }, stdout: true });
  // Only run.js writes stdout (the result line).
  worker.stdout.pipe(process.stderr);
  const thread = { worker, busy: 0, sockets: new Map() };
  worker.on('message', ({ type, id, chunk }) => {
    const socket = thread.sockets.get(id);
    if (!socket) return;
    if (type === 'data') socket.write(chunk);
    else if (type === 'end') socket.end();
    else if (type === 'close') socket.destroy();
  });
  const [first] = await Promise.race([
    once(worker, 'message'),
    once(worker, 'error').then(([error]) => {
      throw new WorkloadError(
        error?.code === 'ERR_EXPORT_INVALID' ? 'ERR_EXPORT_INVALID' : 'ERR_TASK_FAILED',
        `app worker thread ${number}: ${error?.message ?? error}`,
        { cause: error },
      );
    }),
  ]);
  if (first?.type !== 'ready') throw new WorkloadError('ERR_TASK_FAILED', `app worker thread ${number} did not start`);
  worker.on('error', (error) => {
    process.stderr.write(`app worker thread ${number} failed: ${error?.message ?? error}\n`);
    process.exit(1);
  });
  return thread;
}
