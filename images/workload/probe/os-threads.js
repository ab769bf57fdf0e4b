// OS threads of the run's processes (the primary and its cluster children, or a start command's tree), read from /proc.
//
// peak_threads: the total is sampled every 20 ms (one small file per process, cheap enough not to
// disturb a 0.5-CPU container) and at every task end, since a thread blocked in sync work cannot run
// the timer, and the primary may be that thread.
//
// pool_threads: counted once, when every task has ended. libuv starts its whole pool at the first
// use and never shrinks it, so that count is the peak. Counting earlier would be wrong: a thread
// inherits its creator's name, and argon2 starts `parallelism` short-lived threads of its own from
// inside pool threads, all named "libuv-worker" too (dozens per hash).

import { readdirSync } from 'node:fs';
import { readTextOrNull } from './read-text.js';

const INTERVAL_MS = 20;
const POOL_THREAD_NAME = 'libuv-worker\n';
// libuv names its pool threads from 1.50 on (Node 24 ships it); with older libuv, such as Node 20's
// 1.46, every thread is named "node" and pool threads cannot be told apart: pool_threads is null.
const POOL_NAMES_SINCE = [1, 50];

export function parseThreadsLine(statusText) {
  const match = /^Threads:\s+(\d+)/m.exec(statusText ?? '');
  return match ? Number(match[1]) : null;
}

export function hasNamedPoolThreads(uvVersion) {
  const [major, minor] = uvVersion.split('.').map(Number);
  return major > POOL_NAMES_SINCE[0] || (major === POOL_NAMES_SINCE[0] && minor >= POOL_NAMES_SINCE[1]);
}

/**
 * @param {number[]} pids  processes to watch from now on; addProcess adds forked ones
 * @param {{ listPids?: () => number[] }} [options]  listPids: processes found anew at every sample (a start command's
 *   tree, whose forks are not ours to hear of), watched besides `pids`
 * @returns {{ addProcess(pid: number): void, sample(): void,
 *   stop(): { peakThreads: number|null, poolThreads: number|null } }}  stop() must come after every task has ended
 *   and before any watched process exits.
 */
export function startThreadSampler(pids, { listPids = () => [] } = {}) {
  const watched = [...pids];
  const current = () => [...new Set([...watched, ...listPids()])];
  let peakThreads = null;
  const sample = () => {
    const total = sumOver(current(), (pid) => parseThreadsLine(readTextOrNull(`/proc/${pid}/status`)));
    if (total !== null) peakThreads = Math.max(peakThreads ?? 0, total);
  };
  const timer = setInterval(sample, INTERVAL_MS);
  timer.unref();
  sample();
  return {
    addProcess: (pid) => watched.push(pid),
    sample,
    stop() {
      clearInterval(timer);
      sample();
      const poolThreads = hasNamedPoolThreads(process.versions.uv) ? sumOver(current(), countPoolThreads) : null;
      return { peakThreads, poolThreads };
    },
  };
}

/** Sum of the readable values; null when no process could be read (no /proc, say). */
function sumOver(pids, read) {
  let total = null;
  for (const pid of pids) {
    const value = read(pid);
    if (value !== null) total = (total ?? 0) + value;
  }
  return total;
}

function countPoolThreads(pid) {
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  return tids.filter((tid) => readTextOrNull(`/proc/${pid}/task/${tid}/comm`) === POOL_THREAD_NAME).length;
}
