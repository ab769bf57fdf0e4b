// CPU time of the calling thread, in nanoseconds. Busy work that must cost a fixed amount of CPU
// (http `spin`) measures itself with this clock: a wall-clock deadline would let a throttled thread
// (CFS quota) burn less CPU than asked, and the experiment would measure less work than it says.
//
// /proc/thread-self/schedstat's first field is the scheduler's exact run time of this thread (ns),
// for the main thread and worker threads alike; Node ≥ 23.9 also has process.threadCpuUsage().

import { readFileSync } from 'node:fs';
import { WorkloadError } from '../workload-error.js';

const SCHEDSTAT = '/proc/thread-self/schedstat';

function readSchedstatNs() {
  return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ', 1)[0]);
}

function readThreadCpuUsageNs() {
  const { user, system } = process.threadCpuUsage();
  return (user + system) * 1000;
}

/** The best per-thread CPU clock this process has, as () => ns; throws when it has none. */
export function chooseThreadCpuClock({
  readSchedstat = readSchedstatNs,
  threadCpuUsage = process.threadCpuUsage,
} = {}) {
  try {
    if (Number.isFinite(readSchedstat())) return readSchedstat;
  } catch {
    // no schedstat (a kernel without CONFIG_SCHED_INFO): try Node's own clock
  }
  if (typeof threadCpuUsage === 'function') return readThreadCpuUsageNs;
  throw new WorkloadError(
    'ERR_SPEC_INVALID',
    `spin work needs a per-thread CPU clock: neither ${SCHEDSTAT} nor process.threadCpuUsage() (Node ≥ 23.9) is available here`,
  );
}
