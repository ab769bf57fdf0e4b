// A fake backend of canned results, the contract's second implementation (contract.js; the Docker backend is the
// first), as hyperfine keeps its mock executor beside its Executor trait: it drives config → plan → rows → CSV with
// no Docker, in milliseconds, and test/unit/backend/contract.test.js holds it to the same rules as the Docker one.
// `outcome(run)` decides what each run "did"; the default is a plausible success; `{ lost: true }` is an engine that
// went away during the run; an aborted signal resolves `{ aborted: true }`, as the contract asks.
import { backendLost } from './contract.js';

/** The run context (runExperiments' `context`) of a matrix on the fake backend: no engine, image or git behind it. */
export const FAKE_CONTEXT = Object.freeze({
  config: { file: 'x.yml' },
  engine: { host: 'fake', version: '0' },
  images: new Map(),
  project: { git_revision: null, git_dirty: null },
  argv: [],
  seed: 7,
});

export function fakeResult(run, overrides = {}) {
  const tasks = Array.from({ length: run.params.tasks ?? 2 }, (_, task) => ({
    task,
    start_ms: 0.5,
    end_ms: 100 + task,
    process: 0,
    thread: 0,
  }));
  return {
    workload: run.workload,
    wall_ms: 100 + tasks.length - 1,
    setup_ms: 0.5,
    tasks,
    seen: {
      available_parallelism: 2,
      cpus_length: 2,
      cpu_quota: run.values.cpus ?? null,
      cpuset: run.values.cpuset ?? '0-1',
      uv_threadpool_size: run.values.uv_threadpool_size ?? 4,
      node_version: 'v24.9.0',
      cgroup_version: 1,
    },
    peak_threads: 11,
    pool_threads: run.values.uv_threadpool_size ?? 4,
    nr_periods: 10,
    throttled_periods: 2,
    throttled_ms: 12.5,
    cpu_user_ms: 190,
    cpu_system_ms: 5,
    cpu_total_ms: 195,
    peak_rss_mb: 60,
    cgroup_memory_peak_mb: 70,
    // A quiet host: 100 ms of other CPU time over the window (interference_pct 4.9 at 2 CPUs).
    host: { cpu_ms: 295, window_ms: 1020, cpus: 2 },
    metrics: {},
    ...overrides,
  };
}

/** @returns {import('./contract.js').Backend & { executed: object[] }} */
export function createFakeExecutor(outcome = () => ({})) {
  const executed = [];
  return {
    executed,
    async execute(run, { signal } = {}) {
      executed.push(run);
      // Stopped before it began: what a real backend resolves once it has removed what it started.
      const stopped = signal?.aborted ?? false;
      const {
        lost = false,
        result = fakeResult(run),
        stdout,
        stderr = '',
        exitCode = 0,
        oomKilled = false,
        timedOut = false,
        aborted = stopped,
      } = outcome(run) ?? {};
      if (lost) throw backendLost(`the fake engine went away during run ${run.runKey}`);
      return {
        exitCode,
        stdout: stdout ?? `${JSON.stringify(result)}\n`,
        stderr,
        oomKilled,
        timedOut,
        aborted,
        containerMs: 250,
        containerId: `fake-${executed.length}`,
        startedAt: new Date('2026-11-22T05:00:00Z'),
        finishedAt: new Date('2026-11-22T05:00:01Z'),
      };
    },
  };
}

/**
 * Lanes over fake backends, one lane per engine: what docker/engine-set.js makes of real engines.
 * @param {Record<string, ReturnType<typeof createFakeExecutor>>} backends  engine name → its backend
 * @returns {import('./contract.js').Lane[]}
 */
export function createFakeLanes(backends) {
  return Object.entries(backends).map(([engine, backend]) => ({
    id: `${engine}#0`,
    engine,
    slot: { index: 0, cpuset: '0-1' },
    execute: async (run, options) => ({ ...(await backend.execute(run, options)), engine, slotCpuset: '0-1' }),
  }));
}
