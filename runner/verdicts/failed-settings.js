// Settings that ran out of memory: never advice. With `memory:` set to the container's limit in production (init
// writes it from the service's deployment files), a setting that needs more (four cluster processes in 512Mi) is
// killed as it would be there; its runs are `oom` rows, with no measured value to compare. A setting that ran out
// of memory in any run would be killed in production too, now and then: it is out, whatever its other runs measured.

/**
 * The setting as advice lists it when its cell ran out of memory, else null.
 * @param {{ cell: string, statuses?: Record<string, number> }} cell  a cell (cells/cell.js buildCell)
 * @param {string} label  the setting's words (uv_threadpool_size=4 cluster=2)
 * @returns {{ cell: object, label: string, state: 'failed', why: string, median: null, n: number,
 *   constraints: [], cost: null }|null}
 */
export function judgeFailures(cell, label) {
  const statuses = cell.statuses ?? {};
  const oom = statuses.oom ?? 0;
  if (oom === 0) return null;
  const total = Object.values(statuses).reduce((sum, count) => sum + count, 0);
  return {
    cell,
    label,
    state: 'failed',
    why: `failed: out of memory${oom === total ? '' : ` in ${oom} of ${total} runs`}`,
    median: null,
    n: 0,
    constraints: [],
    cost: null,
  };
}
