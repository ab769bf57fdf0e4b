// A run placed otherwise than its cell asked (a backend that cannot choose CPUs by id) is said, never measured as the
// cell: its own cgroup readings against what the backend asked for.
import { checkPlacement, judgeRun } from '../../../runner/collect/parse-result.js';

const line = (seen) => JSON.stringify({ wall_ms: 5, tasks: [], seen });

test('got what was asked: exclusive CPUs without a quota, or a quota on a shared pool', () => {
  expect(checkPlacement({ cpus: 1, exclusive: true }, { cpuset: '1', cpu_quota: null })).toBeNull();
  expect(checkPlacement({ cpus: 1, exclusive: false }, { cpuset: '1', cpu_quota: null })).toBeNull();
  expect(checkPlacement({ cpus: 0.5, exclusive: false }, { cpuset: '0-1', cpu_quota: 0.5 })).toBeNull();
  expect(checkPlacement({ cpus: null, exclusive: false }, { cpuset: '0-1', cpu_quota: null })).toBeNull();
  expect(checkPlacement(undefined, { cpuset: '0-1' })).toBeNull();
});

test('an exclusive CPU asked and the shared pool given: the run fails, saying what it got', () => {
  const raw = {
    exitCode: 0,
    stdout: line({ cpuset: '0-1', cpu_quota: 1 }),
    stderr: '',
    placement: { cpus: 1, exclusive: true },
  };
  expect(judgeRun(raw, { timeoutMs: 1000 })).toMatchObject({
    status: 'failed',
    error:
      "placement differs from the cell: asked for 1 exclusive CPU(s), the pod got cpuset 0-1 and a quota of 1 CPUs (is the node's CPU manager policy static?)",
  });
  const quota = { ...raw, stdout: line({ cpuset: '0-3', cpu_quota: 2 }), placement: { cpus: 1.5, exclusive: false } };
  expect(judgeRun(quota, { timeoutMs: 1000 }).error).toBe(
    'placement differs from the cell: asked for 1.5 CPU(s), the pod got cpuset 0-3 and a quota of 2 CPUs',
  );
});
