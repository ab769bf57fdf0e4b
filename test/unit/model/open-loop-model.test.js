// The http model for an open loop (images/workload/workloads/http.js): an M/D/1 queue over the threads that can run
// the work, exact for one thread on one CPU.
import { model } from '../../../images/workload/workloads/http.js';
import { responseQuantile } from '../../../images/workload/lib/md1.js';

const cellOf = (rate, { cpus = 1, workers = 0, cluster = 0 } = {}) => ({
  params: { work: 'spin', spin: { ms: 5 }, load: 'open', open: { rate }, fastProbe: false },
  cpus,
  pool: 4,
  workers,
  cluster,
});
const calibration = { kind: 'sample', value: 5 };

test('one thread on one CPU: the M/D/1 p99 of D = the CPU time of a response', () => {
  expect(model.predict(cellOf(160), calibration)).toEqual({
    requests_per_sec: 160,
    latency_p99_ms: responseQuantile(0.99, { rate: 0.16, serviceMs: 5 }),
  });
});

test('two processes on two CPUs take turns twice as fast; past the capacity, its rate and no p99', () => {
  const two = model.predict(cellOf(320, { cpus: 2, cluster: 2 }), calibration);
  expect(two.latency_p99_ms).toBeCloseTo(responseQuantile(0.99, { rate: 0.32, serviceMs: 2.5 }) + 2.5, 9);
  expect(model.predict(cellOf(250), calibration)).toEqual({ requests_per_sec: 200 });
});
