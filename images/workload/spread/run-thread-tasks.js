import { readClockMs } from '../clock.js';
import { WorkloadError } from '../workload-error.js';

/**
 * @typedef {{ task: number, process: number, thread: number, start: number, end: number }} TaskRecord
 *   start and end are absolute clock.js times; run.js makes them relative to t0.
 */

/**
 * Start every task of one thread at once and resolve with their records. Async work (crypto.pbkdf2,
 * argon2) is all queued before any of it completes. Sync work (pbkdf2Sync) runs to completion inside
 * its runTask call, so sync tasks on one thread run one after another: that is their real cost.
 * @param {(record: TaskRecord) => void} onTaskEnd  called as each task ends, before the others resolve
 * @returns {Promise<TaskRecord[]>}
 */
export function runThreadTasks(workload, params, taskIndexes, place, onTaskEnd) {
  return Promise.all(taskIndexes.map((task) => startTask(workload, params, task, place, onTaskEnd)));
}

function startTask(workload, params, task, place, onTaskEnd) {
  const start = readClockMs();
  const finish = (returned) => {
    const end = readClockMs();
    const values = workload.readTaskValues?.(returned);
    const record = { task, process: place.process, thread: place.thread, start, end, ...(values ? { values } : {}) };
    onTaskEnd(record);
    return record;
  };
  const fail = (error) => {
    throw new WorkloadError('ERR_TASK_FAILED', `task ${task}: ${error?.message ?? error}`, { cause: error });
  };
  let pending;
  try {
    pending = workload.runTask(params, task);
  } catch (error) {
    fail(error);
  }
  // Awaiting a sync task's undefined would stamp its end only after every other task on this thread.
  return typeof pending?.then === 'function' ? pending.then(finish, fail) : finish(pending);
}
