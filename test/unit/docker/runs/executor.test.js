// The executor's error mapping, with a fake engine: a vanished engine ends the matrix with a clear,
// resumable error; an engine that refuses one container makes that run a failed row.
import { createDockerExecutor } from '../../../../runner/docker/runs/executor.js';
import { toRows } from '../../../../runner/collect/to-rows.js';
import { LabError } from '../../../../runner/errors.js';

const run = {
  experiment: 'exp',
  cell: 'abc',
  repetition: 1,
  runKey: 'abc.1',
  warmup: false,
  workload: 'pbkdf2',
  values: { workload: 'pbkdf2' },
  params: {},
  nodeMajor: 24,
  env: { LAB_SPEC: '{}' },
  limits: { memoryBytes: 2 ** 28 },
  timeoutMs: 1000,
};
const images = new Map([[24, { tag: 'node-threads-lab/workload:test' }]]);
const engineFailing = (error) => ({
  createContainer: async () => {
    throw error;
  },
});

test('an engine that stopped answering is ERR_BACKEND_LOST, not a row', async () => {
  const executor = createDockerExecutor(
    engineFailing(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
    images,
  );
  const error = await executor.execute(run).catch((e) => e);
  expect(error).toBeInstanceOf(LabError);
  expect(error.code).toBe('ERR_BACKEND_LOST');
  expect(error.message).toMatch(/stopped answering during run abc\.1/);
});

test('an engine that refuses a container makes a failed row with its reason', async () => {
  const executor = createDockerExecutor(
    engineFailing(
      Object.assign(new Error('(HTTP code 400) bad parameter - Requested CPUs are not available'), { statusCode: 400 }),
    ),
    images,
  );
  const raw = await executor.execute(run);
  const { row, status } = toRows(run, raw);
  expect(status).toBe('failed');
  expect(row.error).toMatch(
    /^the container did not run; stderr: \[runner\] Docker refused the container: .*Requested CPUs are not available/,
  );
});
