// The start protocol between a process and the units it spreads tasks over (worker threads, cluster
// processes). A unit sends `ready` once loaded, then for each batch waits for `go`, sends a `task` record as each
// task ends, then `done`; it stays up between batches until it is closed. The barrier at `go` keeps spawn, fork
// and load time out of every task's time and lets all units start together.

import { WorkloadError } from '../workload-error.js';

const CHANNEL_GONE = new Set(['EPIPE', 'ECONNRESET', 'ERR_IPC_CHANNEL_CLOSED']);

/**
 * @param {import('node:events').EventEmitter} unit  a worker_threads Worker or a cluster Worker
 * @param {string} label  names the unit in error messages
 * @param {(record: object) => void} onTask
 * @returns {{ ready: Promise<void>, waitDone: () => Promise<object> }}  ready rejects if the unit fails or exits
 *   first; waitDone(), called before each `go`, resolves with that batch's `done` message and rejects if the unit
 *   fails or exits before it (or already has)
 */
export function followUnit(unit, label, onTask) {
  const ready = createDeferred();
  let batch = null;
  let failure = null;
  // Between a `done` and the next `go` the unit is idle: an exit then is the close we asked for, unless another
  // batch is asked of it.
  let idle = false;
  const fail = (error) => {
    failure ??= error;
    ready.reject(error);
    batch?.reject(error);
  };
  unit.on('message', (message) => {
    if (message?.type === 'ready') ready.resolve();
    else if (message?.type === 'task') onTask(message.record);
    else if (message?.type === 'done') {
      idle = true;
      batch?.resolve(message);
      batch = null;
    } else if (message?.type === 'error') fail(new WorkloadError('ERR_TASK_FAILED', `${label}: ${message.message}`));
  });
  unit.on('error', (error) => {
    // A cluster process killed from outside breaks its channel first: a write to it fails (EPIPE) before its 'exit'
    // arrives. The exit says what happened (the signal or the code), so a broken channel waits for it.
    if (unit.process && CHANNEL_GONE.has(error?.code)) return;
    fail(new WorkloadError('ERR_TASK_FAILED', `${label}: ${error?.message ?? error}`, { cause: error }));
  });
  unit.on('exit', (code, signal) => {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const error = new WorkloadError('ERR_UNIT_EXITED', `${label} exited (${how}) before finishing its tasks`);
    if (idle) failure ??= error;
    else fail(error);
  });
  const waitDone = () => {
    if (failure) return Promise.reject(failure);
    idle = false;
    batch = createDeferred();
    return batch.promise;
  };
  return { ready: ready.promise, waitDone };
}

/** Wait until every unit is ready; if one fails, stop them all before rethrowing. */
export async function awaitReady(units, close) {
  try {
    await Promise.all(units.map((unit) => unit.ready));
  } catch (error) {
    await close();
    throw error;
  }
}

function createDeferred() {
  let resolve;
  let reject;
  const promise = new Promise((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  // A unit can fail while nobody awaits `done` yet; the rejection is still seen by whoever awaits later.
  promise.catch(() => {});
  return { promise, resolve, reject };
}
