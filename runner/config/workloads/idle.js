// idle: memory of idle worker threads and cluster processes. The spread starts them as for every
// workload; each task only waits, then the image reads the resident set of every process (rss_mb).

const params = {
  tasks: {
    type: 'integer', minimum: 1, default: 1, examples: [1],
    title: 'Waiting tasks', description: 'Tasks that only wait `settleMs`; threads without one stay up idle all the same.',
  },
  settleMs: {
    type: 'integer', minimum: 1, default: 500, examples: [500],
    title: 'Settle time (ms)', description: 'How long every thread is up and quiet before the resident set is read.',
  },
};

export const idle = {
  description:
    'Start `workers` idle worker threads (per process) and/or `cluster` idle processes, wait until they are up and quiet, ' +
    'then measure the resident set (RSS) of the primary plus every cluster process: rss_mb.',
  params,
};
