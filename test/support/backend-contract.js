// The backend contract's rules (runner/backend/contract.js) as one suite, run against each implementation: the fake
// backend (runner/backend/fake.js) in the unit tests, the Docker backend on the real engine and the Kubernetes backend
// on the lab cluster (test/integration/kubernetes.test.js) in the integration tests. What the run loop relies on is
// asserted here once.
import { isBackendLost } from '../../runner/backend/contract.js';
import { toRows } from '../../runner/collect/to-rows.js';
import { DEFAULT_NODE_MAJOR } from '../../runner/domain/axes.js';
import { planExperiments } from '../../runner/plan/plan-runs.js';

/**
 * The runs the contract's suite asks a backend for: one pbkdf2 run (ok) and one idle run (past its timeout, or
 * aborted), from the planner itself. `cpus`: a budget for a backend that needs one (a Kubernetes pod's limit).
 * @returns {(workload: string) => object}  the planned run of that workload
 */
export function planContractRuns({ cpus } = {}) {
  const [plan] = planExperiments(
    {
      file: 'x.yml',
      experiments: [
        {
          name: 'backend-contract',
          repetitions: 1,
          timeout: 60,
          memory_bytes: 2 ** 28,
          env: {},
          include: [],
          exclude: [],
          matrix: { workload: ['pbkdf2', 'idle'], ...(cpus === undefined ? {} : { cpus: [cpus] }) },
          params: { pbkdf2: { tasks: 1, iterations: 1000 }, idle: { settleMs: 60_000 } },
        },
      ],
    },
    { defaultNodeMajor: DEFAULT_NODE_MAJOR },
  );
  return (workload) => plan.runs.find((run) => run.workload === workload);
}

/**
 * @param {string} name
 * @param {() => Promise<object>|object} setUp  resolves { backend, lostBackend, runs: { ok, failing }, afterEach? }:
 *   lostBackend is one whose engine is gone; `failing` is a RunSpec the backend runs and fails (a non-zero exit, a
 *   timeout); afterEach checks nothing of the run is left behind
 */
export function describeBackendContract(name, setUp) {
  describe(`the backend contract: ${name}`, () => {
    let subject;
    beforeAll(async () => {
      subject = await setUp();
    });
    afterEach(async () => {
      await subject.afterEach?.();
    });

    test("a run resolves one Outcome of the contract's shape, and its row is ok", async () => {
      const outcome = await subject.backend.execute(subject.runs.ok, {});
      expect(outcome).toMatchObject({
        exitCode: 0,
        stdout: expect.any(String),
        stderr: expect.any(String),
        oomKilled: false,
        timedOut: false,
        containerMs: expect.any(Number),
        startedAt: expect.any(Date),
        finishedAt: expect.any(Date),
      });
      expect(outcome.aborted).toBeFalsy();
      expect(outcome.finishedAt.getTime()).toBeGreaterThanOrEqual(outcome.startedAt.getTime());
      const { row, status } = toRows(subject.runs.ok, outcome);
      expect([status, row.error]).toEqual(['ok', '']);
      expect(row.wall_ms).toBeGreaterThan(0);
    });

    test('a failed run is an Outcome, never a throw: it gets a row that says why', async () => {
      const outcome = await subject.backend.execute(subject.runs.failing, {});
      expect(outcome.aborted).toBeFalsy();
      const { row, status } = toRows(subject.runs.failing, outcome);
      expect(status).not.toBe('ok');
      expect(row.error).toEqual(expect.any(String));
      expect(row.error.length).toBeGreaterThan(0);
    });

    test('an aborted signal stops the run: it resolves { aborted: true }, so it gets no row', async () => {
      const outcome = await subject.backend.execute(subject.runs.ok, { signal: AbortSignal.abort() });
      expect(outcome.aborted).toBe(true);
    });

    test('an engine that went away throws backendLost (ERR_BACKEND_LOST), never an Outcome', async () => {
      const error = await subject.lostBackend.execute(subject.runs.ok, {}).then(
        () => null,
        (thrown) => thrown,
      );
      expect(isBackendLost(error)).toBe(true);
      expect(error.message).toContain(subject.runs.ok.runKey);
    });
  });
}
