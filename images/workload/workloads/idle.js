// idle: what idle worker threads and cluster processes cost in memory. The spread starts `workers`
// threads (per process) and `cluster` processes as for every workload and waits until each is up;
// each task then only waits `settleMs`, so the process is quiet (start-up garbage collected or not,
// as an app's would be). Then, with every thread and process still alive, measure() reads the resident
// set of the primary and of each cluster process from /proc: what `process.memoryUsage().rss` of each
// would say, summed. `tasks` (1) are dealt as usual; threads without a task just stay up.

import { setTimeout as sleep } from 'node:timers/promises';
import { readTextOrNull } from '../probe/read-text.js';

export const description =
  'Start `workers` idle worker threads (per process) and/or `cluster` idle processes, wait until they are up and quiet, ' +
  'then measure the resident set (RSS) of the primary plus every cluster process: rss_mb.';

export const params = {
  tasks: {
    type: 'integer', minimum: 1, default: 1, examples: [1],
    title: 'Waiting tasks', description: 'Tasks that only wait `settleMs`; threads without one stay up idle all the same.',
  },
  settleMs: {
    type: 'integer', minimum: 1, default: 500, examples: [500],
    title: 'Settle time (ms)', description: 'How long every thread is up and quiet before the resident set is read.',
  },
};

// The result line's `metrics`, which measure() returns: resident set after the threads and processes
// settled, all processes summed, and the primary's alone.
export const columns = [
  { name: 'rss_mb', unit: 'MB', description: 'resident set of the primary plus every cluster process' },
  { name: 'main_rss_mb', unit: 'MB', description: 'resident set of the primary process alone' },
];

export const primaryMetrics = [{ column: 'rss_mb', better: 'lower', label: 'resident memory' }];

const KIB_PER_MIB = 1024;

export function runTask({ settleMs }) {
  return sleep(settleMs);
}

/** VmRSS of /proc/<pid>/status in KiB, or null where it cannot be read. */
export function parseVmRssKiB(statusText) {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(statusText ?? '');
  return match ? Number(match[1]) : null;
}

/** @param {{ pids: number[] }} run  the primary first, then the cluster processes */
export function measure({ pids }) {
  const rss = pids.map((pid) => parseVmRssKiB(readTextOrNull(`/proc/${pid}/status`)));
  const known = rss.filter((value) => value !== null);
  const toMiB = (kib) => Math.round((kib / KIB_PER_MIB) * 1000) / 1000;
  return {
    rss_mb: known.length > 0 ? toMiB(known.reduce((a, b) => a + b, 0)) : null,
    main_rss_mb: rss[0] === null ? null : toMiB(rss[0]),
  };
}
