// The user's own HTTP app in the three shapes of the http workload:
//   single   this process serves it on the app port
//   cluster  every cluster process does the same (node:cluster shares the port; see cluster.js)
//   workers  W worker threads each run the app; this thread accepts the connections and deals them
//            out (the least busy thread first), passing each connection's bytes to and fro. Node has
//            no port sharing between threads, but an http.Server serves any Duplex emitted as a
//            'connection' (documented), so the app runs unchanged in every thread.
// The export is a `(req, res)` handler (two or more parameters: Express apps have three) or a
// function that returns an http.Server without calling listen().

import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { WorkloadError } from '../workload-error.js';
import { loadUserExport } from '../user/load-export.js';
import { formatUserError } from '../user/user-error.js';
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

/** The user's http.Server, not listening. */
export async function createUserServer(app) {
  const exported = await loadUserExport(app);
  if (exported.length >= 2) return http.createServer(failLoudly(exported));
  const server = await exported();
  if (!(server instanceof net.Server)) {
    throw new WorkloadError(
      'ERR_EXPORT_INVALID',
      `export \`${app.export}\` of ${app.file.replace(/^\/lab\/user\//, '')} takes fewer than two parameters, so it was called as a server factory, ` +
        `but it returned ${server === null ? 'null' : typeof server}, not an http.Server: export a (req, res) handler, or a function returning http.createServer(...)`,
    );
  }
  if (server.listening)
    throw new WorkloadError(
      'ERR_EXPORT_INVALID',
      `export \`${app.export}\` returned a server that is already listening: return it without calling listen(), the lab picks the port`,
    );
  return server;
}

/**
 * A handler that throws (or rejects) would crash a plain Node server all the same; here the run fails
 * with the user's stack in `error`, not only the message.
 */
function failLoudly(handler) {
  const explain = (request, error) =>
    new WorkloadError(
      'ERR_TASK_FAILED',
      `your app threw on ${request.method} ${request.url}: ${formatUserError(error)}`,
      { cause: error },
    );
  return function handle(request, response, ...rest) {
    let returned;
    try {
      returned = handler.call(this, request, response, ...rest);
    } catch (error) {
      throw explain(request, error);
    }
    if (typeof returned?.then === 'function') {
      returned.then(undefined, (error) => {
        throw explain(request, error);
      });
    }
  };
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
