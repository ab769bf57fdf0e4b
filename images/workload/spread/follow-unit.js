// The start protocol between a process and the units it spreads tasks over (worker threads, cluster
// processes). A unit sends `ready` once loaded, waits for `go`, sends a `task` record as each task
// ends, then `done`. The barrier at `go` keeps spawn, fork and load time out of every task's time
// and lets all units start together.

import { WorkloadError } from '../workload-error.js';

const CHANNEL_GONE = new Set(['EPIPE', 'ECONNRESET', 'ERR_IPC_CHANNEL_CLOSED']);

/**
 * @param {import('node:events').EventEmitter} unit  a worker_threads Worker or a cluster Worker
 * @param {string} label  names the unit in error messages
 * @param {(record: object) => void} onTask
 * @returns {{ ready: Promise<void>, done: Promise<object> }}  both reject if the unit fails or exits first
 */
export function followUnit(unit, label, onTask) {
  const ready = createDeferred();
  const done = createDeferred();
  let finished = false;
  const fail = (error) => {
    ready.reject(error);
    done.reject(error);
  };
  unit.on('message', (message) => {
    if (message?.type === 'ready') ready.resolve();
    else if (message?.type === 'task') onTask(message.record);
    else if (message?.type === 'done') {
      finished = true;
      done.resolve(message);
    } else if (message?.type === 'error') fail(new WorkloadError('ERR_TASK_FAILED', `${label}: ${message.message}`));
  });
  unit.on('error', (error) => {
    // A cluster process killed from outside breaks its channel first: a write to it fails (EPIPE) before its 'exit'
    // arrives. The exit says what happened (the signal or the code), so a broken channel waits for it.
    if (unit.process && CHANNEL_GONE.has(error?.code)) return;
    fail(new WorkloadError('ERR_TASK_FAILED', `${label}: ${error?.message ?? error}`, { cause: error }));
  });
  unit.on('exit', (code, signal) => {
    if (finished) return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    fail(new WorkloadError('ERR_UNIT_EXITED', `${label} exited (${how}) before finishing its tasks`));
  });
  return { ready: ready.promise, done: done.promise };
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
