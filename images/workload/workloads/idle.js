// idle: what idle worker threads and cluster processes cost in memory. The spread starts `workers`
// threads (per process) and `cluster` processes as for every workload and waits until each is up;
// each task then only waits `settleMs`, so the process is quiet (start-up garbage collected or not,
// as an app's would be). Then, with every thread and process still alive, measure() reads the resident
// set of the primary and of each cluster process from /proc: what `process.memoryUsage().rss` of each
// would say, summed. `tasks` (1) are dealt as usual; threads without a task just stay up.
// RSS counts a page shared by several processes (the node binary, libraries) once per process, so a
// sum over a cluster overstates what the cluster costs; PSS (smaps_rollup) splits each shared page
// between the processes that map it, so PSS sums to the memory really used. VSZ (VmSize) is the
// address space reserved, the "VSZ"/"Size" column of ps and top.

import { setTimeout as sleep } from 'node:timers/promises';
import { readTextOrNull } from '../probe/read-text.js';

export const description =
  'Start `workers` idle worker threads (per process) and/or `cluster` idle processes, wait until they are up and quiet, ' +
  'then measure the resident set (RSS) of the primary plus every cluster process: rss_mb.';

export const params = {
  tasks: {
    type: 'integer',
    minimum: 1,
    default: 1,
    examples: [1],
    title: 'Waiting tasks',
    description: 'Tasks that only wait `settleMs`; threads without one stay up idle all the same.',
  },
  settleMs: {
    type: 'integer',
    minimum: 1,
    default: 500,
    examples: [500],
    title: 'Settle time (ms)',
    description: 'How long every thread is up and quiet before the resident set is read.',
  },
};

// The result line's `metrics`, which measure() returns, after the threads and processes settled: all
// processes summed, and the primary's alone.
export const columns = [
  {
    name: 'rss_mb',
    unit: 'MiB',
    description: 'resident set of the primary plus every cluster process (shared pages once per process)',
  },
  { name: 'main_rss_mb', unit: 'MiB', description: 'resident set of the primary process alone' },
  {
    name: 'pss_mb',
    unit: 'MiB',
    description:
      'proportional set of the primary plus every cluster process (shared pages split: what they cost together)',
  },
  { name: 'main_pss_mb', unit: 'MiB', description: 'proportional set of the primary process alone' },
  {
    name: 'vsz_mb',
    unit: 'MiB',
    description: 'virtual size (VmSize, ps VSZ) of the primary plus every cluster process',
  },
  { name: 'main_vsz_mb', unit: 'MiB', description: 'virtual size of the primary process alone' },
];

export const primaryMetrics = [{ column: 'rss_mb', better: 'lower', label: 'resident memory' }];

const KIB_PER_MIB = 1024;

export function runTask({ settleMs }) {
  return sleep(settleMs);
}

/** A `Key:   123 kB` line of a /proc file, in KiB, or null where it is missing. */
export function parseProcKiB(text, key) {
  const match = new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(text ?? '');
  return match ? Number(match[1]) : null;
}

/** @param {{ pids: number[] }} run  the primary first, then the cluster processes */
export function measure({ pids }) {
  const status = pids.map((pid) => readTextOrNull(`/proc/${pid}/status`));
  const rollup = pids.map((pid) => readTextOrNull(`/proc/${pid}/smaps_rollup`));
  const rss = status.map((text) => parseProcKiB(text, 'VmRSS'));
  const pss = rollup.map((text) => parseProcKiB(text, 'Pss'));
  const vsz = status.map((text) => parseProcKiB(text, 'VmSize'));
  return {
    rss_mb: sumMiB(rss),
    main_rss_mb: sumMiB(rss.slice(0, 1)),
    pss_mb: sumMiB(pss),
    main_pss_mb: sumMiB(pss.slice(0, 1)),
    vsz_mb: sumMiB(vsz),
    main_vsz_mb: sumMiB(vsz.slice(0, 1)),
  };
}

// Sizes are MiB (2^20 bytes), 3 decimals; null when no process could be read.
function sumMiB(kibs) {
  const known = kibs.filter((value) => value !== null);
  if (known.length === 0) return null;
  return Math.round((known.reduce((a, b) => a + b, 0) / KIB_PER_MIB) * 1000) / 1000;
}

// The capacity model of memory: a base per process (the primary, plus each cluster process) and a cost per
// worker thread (each cluster process starts `workers` of its own; the primary then starts none), fitted
// by least squares to the folder's runs.
const countMemoryTerms = ({ workers, cluster }) => ({ process: 1 + cluster, thread: workers * Math.max(1, cluster) });

export const model = {
  calibration: () => ({ kind: 'fit', metric: 'rss_mb', terms: countMemoryTerms }),
  predict(cell, { coefficients }) {
    const terms = countMemoryTerms(cell);
    return { rss_mb: coefficients.process * terms.process + coefficients.thread * terms.thread };
  },
  describe: ({ coefficients }) =>
    `${coefficients.process.toPrecision(3)} MiB a process + ${coefficients.thread.toPrecision(3)} MiB a worker thread`,
};
