// The capacity models' arithmetic on cells worked by hand: waves of equal tasks over threads sharing the
// usable CPUs (images/workload/lib/capacity.js), and each workload's `model` on top of it.
import { listPoolLoads, listThreadLoads, shareCpus } from '../../../images/workload/lib/capacity.js';
import { usableCpus } from '../../../runner/domain/usable-cpus.js';
import { toModelCell } from '../../../runner/model/model-cell.js';
import { WORKLOADS, fillAllParams } from '../../../runner/domain/workloads.js';

const params = (workload, given = {}) => fillAllParams({ [workload]: given })[workload];
const cell = (workload, given, axes = {}) => ({
  params: params(workload, given),
  cpus: 2,
  pool: 4,
  workers: 0,
  cluster: 0,
  ...axes,
});
const predict = (workload, modelCell, calibration) => WORKLOADS[workload].model.predict(modelCell, calibration);
// An http folder made before the window waited for the warm-up to drain: its params have no `fastProbe`.
const beforeDrain = (modelCell) => {
  const { fastProbe, ...params } = modelCell.params;
  return { ...modelCell, params };
};

describe('shareCpus: chains of equal tasks sharing CPUs fairly', () => {
  test("16 tasks on 1, 4 or 8 threads at 2 CPUs: 16, 8 and 8 task-times (the post's 0.25 needs 4 CPUs)", () => {
    expect(shareCpus(Array(1).fill(16), { cpus: 2 }).last).toBe(16);
    expect(shareCpus(Array(4).fill(4), { cpus: 2 }).last).toBe(8);
    expect(shareCpus(Array(8).fill(2), { cpus: 2 }).last).toBe(8);
    expect(shareCpus(Array(4).fill(4), { cpus: 4 }).last).toBe(4);
  });

  test('a fractional quota slices time: one task on 0.5 CPU takes 2 task-times, on 1.5 CPUs still 1', () => {
    expect(shareCpus([1], { cpus: 0.5 }).last).toBe(2);
    expect(shareCpus([1], { cpus: 1.5 }).last).toBe(1);
    expect(shareCpus([5, 5, 5], { cpus: 1.5 }).last).toBe(10);
  });

  test('uneven chains: 4 tasks on 3 threads at 2 CPUs: three share (1.5), then the last runs alone (1)', () => {
    expect(shareCpus([2, 1, 1], { cpus: 2 })).toEqual({ first: 1.5, last: 2.5 });
  });

  test('the first answer: 6 requests on 6 single-thread processes at 2 CPUs end together at 3; on 2 processes the first at 1', () => {
    expect(shareCpus(Array(6).fill(1), { cpus: 2 })).toEqual({ first: 3, last: 3 });
    expect(shareCpus([3, 3], { cpus: 2 })).toEqual({ first: 1, last: 3 });
  });

  test('width: a chain may use several CPUs (argon2 lanes), never more than it has', () => {
    expect(shareCpus([4], { cpus: 2, width: 4 }).last).toBe(2);
    expect(shareCpus([4], { cpus: 8, width: 4 }).last).toBe(1);
    expect(shareCpus([], { cpus: 2 })).toEqual({ first: 0, last: 0 });
  });
});

describe('dealing tasks as spread/ does', () => {
  test('sync work: round-robin over processes (the primary runs none), then over worker threads, else the main thread', () => {
    expect(listThreadLoads({ tasks: 5, workers: 0, cluster: 0 })).toEqual([5]);
    expect(listThreadLoads({ tasks: 5, workers: 2, cluster: 0 })).toEqual([3, 2]);
    expect(listThreadLoads({ tasks: 5, workers: 2, cluster: 2 })).toEqual([2, 1, 1, 1]);
  });

  test('pool work: each process has its own pool, shared by its worker threads; jobsPerTask multiplies the jobs', () => {
    expect(listPoolLoads({ tasks: 16, pool: 4 })).toEqual([4, 4, 4, 4]);
    expect(listPoolLoads({ tasks: 2, pool: 4 })).toEqual([1, 1, 0, 0]);
    expect(listPoolLoads({ tasks: 6, pool: 1, cluster: 4 })).toEqual([2, 2, 1, 1]);
    expect(listPoolLoads({ tasks: 4, pool: 8, jobsPerTask: 2 })).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });
});

describe('usable CPUs and the model cell', () => {
  test("the smallest of the quota, the cpuset size and the host's CPUs; a fraction stays one", () => {
    expect(usableCpus({ cpus: 0.5 }, 2)).toBe(0.5);
    expect(usableCpus({ cpus: 2, cpuset: '0' }, 2)).toBe(1);
    expect(usableCpus({}, 2)).toBe(2);
    expect(usableCpus({}, null)).toBeNull();
  });

  test("unset axes take libuv's pool of 4, no workers, no cluster; no params, no model cell", () => {
    expect(toModelCell({ values: { cpus: 1 }, params: { tasks: 1 } }, 2)).toEqual({
      params: { tasks: 1 },
      allowedCpus: 1,
      cpus: 1,
      takenCpus: 0,
      pool: 4,
      workers: 0,
      cluster: 0,
    });
    expect(toModelCell({ values: {} }, 2)).toBeNull();
  });
});

describe("each workload's model on hand-worked cells", () => {
  test('pbkdf2: 16 async calls of 100 ms on pool 4 at 2 CPUs: 800 ms; sync on 2 workers at 0.5 CPU: 3200 ms', () => {
    expect(predict('pbkdf2', cell('pbkdf2', { tasks: 16 }), { value: 100 })).toEqual({ wall_ms: 800 });
    expect(predict('pbkdf2', cell('pbkdf2', { tasks: 16 }, { pool: 1 }), { value: 100 })).toEqual({ wall_ms: 1600 });
    expect(
      predict('pbkdf2', cell('pbkdf2', { tasks: 16, sync: true }, { workers: 2, cpus: 0.5 }), { value: 100 }),
    ).toEqual({ wall_ms: 3200 });
    // Sync calls without workers run one after another on the main thread, whatever the pool.
    expect(predict('pbkdf2', cell('pbkdf2', { tasks: 16, sync: true }, { pool: 8 }), { value: 100 })).toEqual({
      wall_ms: 1600,
    });
  });

  test('argon2: 4 tasks (hash + verify) of 500 ms on pool 1 at 2 CPUs with 4 lanes: 1000 ms; 1 lane: 2000 ms', () => {
    expect(predict('argon2', cell('argon2', { tasks: 4, parallelism: 4 }, { pool: 1 }), { value: 500 })).toEqual({
      wall_ms: 1000,
    });
    expect(predict('argon2', cell('argon2', { tasks: 4, parallelism: 1 }, { pool: 1 }), { value: 500 })).toEqual({
      wall_ms: 2000,
    });
    expect(
      predict('argon2', cell('argon2', { tasks: 4, parallelism: 1 }, { pool: 4, cpus: 1 }), { value: 500 }),
    ).toEqual({ wall_ms: 2000 });
  });

  test('sum: 2 slices of 600 ms: on the main thread 1200 ms, on 2 cluster processes 600, on 1 worker 1200', () => {
    expect(predict('sum', cell('sum', { tasks: 2 }), { value: 600 })).toEqual({ wall_ms: 1200 });
    expect(predict('sum', cell('sum', { tasks: 2 }, { cluster: 2 }), { value: 600 })).toEqual({ wall_ms: 600 });
    expect(predict('sum', cell('sum', { tasks: 2 }, { workers: 1 }), { value: 600 })).toEqual({ wall_ms: 1200 });
  });

  test('idle: 50 MiB a process + 10 MiB a thread; a cluster process starts its own workers', () => {
    const coefficients = { process: 50, thread: 10 };
    expect(predict('idle', cell('idle', {}, { workers: 4 }), { coefficients })).toEqual({ rss_mb: 90 });
    expect(predict('idle', cell('idle', {}, { workers: 4, cluster: 2 }), { coefficients })).toEqual({ rss_mb: 230 });
  });

  test('http loop, drained window: 100 ms a response at 1 CPU, 10 s: 1 · 10000 / 100 / 10 = 10 req/s, p99 = connections / throughput', () => {
    const loop = cell(
      'http',
      { pbkdf2: { sync: true }, connections: 10, duration: 10, warmup: 2 },
      { workers: 2, cpus: 1 },
    );
    expect(predict('http', loop, { kind: 'sample', value: 100 })).toEqual({
      requests_per_sec: 10,
      latency_p99_ms: 1000,
    });
  });

  test('http loop before the drain: 100 ms a response, 2 workers at 1 CPU, 10 s with warm-up: (1 · 10000 / 100 − 10 leftovers) / 10 = 9 req/s', () => {
    const loop = beforeDrain(
      cell('http', { pbkdf2: { sync: true }, connections: 10, duration: 10, warmup: 2 }, { workers: 2, cpus: 1 }),
    );
    const predicted = predict('http', loop, { kind: 'sample', value: 100 });
    expect(predicted.requests_per_sec).toBeCloseTo(9, 10);
    // The window's first 10 answers wait behind the 10 leftovers and each other: 20 − 90/100 ahead at 9 req/s.
    expect(predicted.latency_p99_ms).toBeCloseTo(((20 - 0.9) / 9) * 1000, 6);
    // No warm-up: no leftovers, and p99 is connections / throughput.
    const cold = predict('http', { ...loop, params: { ...loop.params, warmup: 0 } }, { kind: 'sample', value: 100 });
    expect(cold).toEqual({ requests_per_sec: 10, latency_p99_ms: 1000 });
    // One worker at 2 CPUs can use one of them.
    expect(
      predict('http', { ...loop, workers: 1, cpus: 2 }, { kind: 'sample', value: 100 }).requests_per_sec,
    ).toBeCloseTo(9, 10);
  });

  test('http burst: 6 requests of 200 ms on 6 single-thread processes at 2 CPUs: first and last answer at 600 ms', () => {
    const burst = cell(
      'http',
      { load: 'burst', burst: { requests: 6, rounds: 200 }, warmup: 0 },
      { pool: 1, cluster: 6 },
    );
    expect(predict('http', burst, { kind: 'sample', value: 200 })).toEqual({
      requests_per_sec: 10,
      latency_p99_ms: 600,
      burst_p50_ms: 600,
      burst_first_p50_ms: 600,
    });
    const one = predict('http', { ...burst, cluster: 1 }, { kind: 'sample', value: 200 });
    expect([one.burst_first_p50_ms, one.burst_p50_ms]).toEqual([200, 1200]);
  });

  test('http with your app, script and command: the least parallel cell scaled by min(parallelism, CPUs)', () => {
    const base = { ...cell('http', { app: { file: 'a.js' } }, { cpus: 1 }) };
    expect(
      predict(
        'http',
        { ...base, cluster: 4, cpus: 2 },
        { kind: 'lowest', base, medians: { requests_per_sec: 100, latency_p99_ms: 40 } },
      ),
    ).toEqual({ requests_per_sec: 200, latency_p99_ms: 20 });
    const script = cell('script', { file: 'f.js', tasks: 4 }, { cpus: 1 });
    expect(
      predict(
        'script',
        { ...script, workers: 4, cpus: 2 },
        { kind: 'lowest', base: script, medians: { wall_ms: 400 } },
      ),
    ).toEqual({ wall_ms: 200 });
    expect(predict('command', { cpus: 2 }, { kind: 'lowest', base: { cpus: 0.5 }, medians: { wall_ms: 400 } })).toEqual(
      { wall_ms: 100 },
    );
  });

  test('the calibration rule each workload names', () => {
    expect(['pbkdf2', 'argon2', 'sum'].map((name) => WORKLOADS[name].model.calibration(params(name)).kind)).toEqual([
      'sample',
      'sample',
      'sample',
    ]);
    expect(WORKLOADS.idle.model.calibration(params('idle'))).toMatchObject({ kind: 'fit', metric: 'rss_mb' });
    expect(WORKLOADS.http.model.calibration(params('http')).kind).toBe('sample');
    expect(WORKLOADS.http.model.calibration(params('http', { app: { file: 'a.js' } })).kind).toBe('lowest');
    expect(WORKLOADS.http.model.calibration(params('http', { load: 'idle' }))).toBeNull();
    // CPU time of one task from a run's own row.
    expect(
      WORKLOADS.pbkdf2.model
        .calibration(params('pbkdf2'))
        .sample({ cpu_total_ms: 1600 }, cell('pbkdf2', { tasks: 16 })),
    ).toBe(100);
    const http = beforeDrain(cell('http', { connections: 10, warmup: 2 }));
    expect(
      WORKLOADS.http.model
        .calibration(http.params)
        .sample({ cpu_total_ms: 10000, requests_per_sec: 9, wall_ms: 10000 }, http),
    ).toBe(100);
    // Since the drain the server counts the window's answers itself.
    const drained = cell('http', { connections: 10, warmup: 2 });
    expect(
      WORKLOADS.http.model
        .calibration(drained.params)
        .sample({ cpu_total_ms: 10000, requests_served: 80, requests_per_sec: 9, wall_ms: 10000 }, drained),
    ).toBe(125);
  });
});
