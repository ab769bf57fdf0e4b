// sum: add 1..n with a plain loop, in `tasks` slices dealt over worker threads and cluster processes;
// each slice is checked against the closed form before the run counts.

const params = {
  tasks: {
    type: 'integer', minimum: 1, default: 1, examples: [1, 2],
    title: 'Slices', description: 'Contiguous slices of 1..n, dealt round-robin over cluster processes and worker threads like other tasks.',
  },
  n: {
    type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 10_000_000, examples: [10_000_000, 1_000_000_000],
    title: 'n', description: 'Sum the integers 1..n (exactly: checked against n(n+1)/2 slice by slice).',
  },
};

export const sum = {
  description:
    'Sum 1..n with a plain JavaScript loop, split into `tasks` slices: synchronous CPU work on the thread that runs ' +
    'each slice (no libuv pool), the case where worker threads and cluster processes add parallelism.',
  params,
  checkParams,
};

/** Issues with paths relative to params.sum. */
function checkParams({ tasks, n }) {
  if (!Number.isInteger(tasks) || !Number.isInteger(n) || tasks <= n) return [];
  return [{ path: ['tasks'], message: `expected at most n (${n}) slices, found ${tasks}`, hint: `lower tasks to ${n} or raise n` }];
}
