// The fake backend held to the backend contract (test/support/backend-contract.js): the unit tests drive the run loop
// through it, so it must keep the rules the Docker backend keeps (test/integration/backend-contract.test.js).
import { createLane } from '../../../runner/backend/contract.js';
import { createFakeExecutor } from '../../../runner/backend/fake.js';
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { describeBackendContract } from '../../support/backend-contract.js';

const [plan] = planExperiments(
  {
    file: 'x.yml',
    experiments: [
      {
        name: 'contract',
        repetitions: 2,
        timeout: 10,
        memory_bytes: 2 ** 28,
        env: {},
        include: [],
        exclude: [],
        matrix: { workload: ['pbkdf2'] },
        params: { pbkdf2: { tasks: 1, iterations: 1000 } },
      },
    ],
  },
  { defaultNodeMajor: 24 },
);
const [ok, failing] = plan.runs;

describeBackendContract('the fake backend', () => ({
  backend: createFakeExecutor((run) => (run === failing ? { exitCode: 1, stdout: '', stderr: 'boom\n' } : {})),
  lostBackend: createFakeExecutor(() => ({ lost: true })),
  runs: { ok, failing },
}));

test("createLane: a backend of one engine as its one lane, the backend's outcome unchanged", async () => {
  const backend = createFakeExecutor();
  const lane = createLane(backend, { engine: 'here' });
  expect(lane).toMatchObject({ id: 'here#0', engine: 'here', slot: { index: 0 } });
  const { containerId, ...outcome } = await lane.execute(ok, {});
  expect(containerId).toBe('fake-1');
  expect(outcome).not.toHaveProperty('engine');
  expect(outcome).toMatchObject({ exitCode: 0, aborted: false });
  expect(backend.executed).toEqual([ok]);
});
