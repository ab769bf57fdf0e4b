import { planExperiments, formatRun, toRunSpec } from '../../../runner/plan/plan-runs.js';
import { toHostLimits } from '../../../runner/plan/cpu-limits.js';
import { parseCpuList } from '../../../images/workload/lib/cpuset.js';
import { LabError } from '../../../runner/errors.js';

function configOf(experiment, extra = {}) {
  return {
    file: '/tmp/experiments.yml',
    locate: () => ({ line: 3, column: 5 }),
    experiments: [
      {
        name: 'exp',
        repetitions: 2,
        timeout: 60,
        memory: '512m',
        memory_bytes: 512 * 2 ** 20,
        env: {},
        include: [],
        exclude: [],
        params: {
          pbkdf2: { tasks: 4, iterations: 1000, keylen: 64, digest: 'sha512', sync: false },
          argon2: { tasks: 2 },
        },
        ...experiment,
      },
      ...(extra.more ?? []),
    ],
  };
}

describe('planExperiments', () => {
  test('one run per cell and repetition, interleaved: every round holds every cell once', () => {
    const [plan] = planExperiments(
      configOf({ repetitions: 3, matrix: { workload: ['pbkdf2'], cpus: [0.5, 1, 1.5, 2] } }),
      { defaultNodeMajor: 24, seed: 7 },
    );
    expect(plan.runs).toHaveLength(12);
    expect(plan.runs.map((run) => run.repetition)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
    for (const round of [0, 4, 8]) {
      expect(
        plan.runs
          .slice(round, round + 4)
          .map((run) => run.values.cpus)
          .sort(),
      ).toEqual([0.5, 1, 1.5, 2]);
    }
    expect(new Set(plan.runs.map((run) => run.runKey)).size).toBe(12);
  });

  test('the shuffled order is a function of the seed', () => {
    const config = configOf({
      repetitions: 3,
      matrix: { workload: ['pbkdf2'], uv_threadpool_size: [1, 2, 3, 4, 5, 6, 7, 8] },
    });
    const order = (seed) =>
      planExperiments(config, { defaultNodeMajor: 24, seed })[0]
        .runs.map((run) => run.runKey)
        .join();
    expect(order(42)).toBe(order(42));
    expect(order(42)).not.toBe(order(43));
  });

  test('warm-up runs come first, flagged, with keys of their own', () => {
    const [plan] = planExperiments(
      configOf({ warmup: 1, repetitions: 2, matrix: { workload: ['pbkdf2'], cpus: [1, 2] } }),
      { defaultNodeMajor: 24 },
    );
    expect(plan.runs.map((run) => run.warmup)).toEqual([true, true, false, false, false, false]);
    expect(plan.runs[0].runKey).toMatch(/^[0-9a-f]{10}\.w1$/);
    expect(formatRun(plan.runs[0])).toMatch(/warm-up 1/);
  });

  test('limits, env and the workload spec that goes into the container', () => {
    const [plan] = planExperiments(
      configOf({
        env: { FIXED: 'yes' },
        matrix: {
          workload: ['pbkdf2'],
          cpus: [1.5],
          cpuset: ['0'],
          uv_threadpool_size: [8],
          workers: [2],
          MY_FLAG: ['a'],
        },
      }),
      { defaultNodeMajor: 24 },
    );
    const [run] = plan.runs;
    expect(run.limits).toEqual({ nanoCpus: 1_500_000_000, cpusetCpus: '0', memoryBytes: 512 * 2 ** 20 });
    expect(run.env).toMatchObject({ UV_THREADPOOL_SIZE: '8', FIXED: 'yes', MY_FLAG: 'a' });
    expect(JSON.parse(run.env.LAB_SPEC)).toEqual({
      workload: 'pbkdf2',
      params: expect.objectContaining({ tasks: 4 }),
      workers: 2,
      cluster: 0,
    });
    expect(run.nodeMajor).toBe(24);
    expect(run.timeoutMs).toBe(60_000);
    expect(plan.envAxes).toEqual(['MY_FLAG']);
  });

  test('an unset axis stays unset: no quota, no pool size variable', () => {
    const [plan] = planExperiments(configOf({ matrix: { workload: ['argon2'] } }), { defaultNodeMajor: 24 });
    expect(plan.runs[0].limits.nanoCpus).toBeUndefined();
    expect(plan.runs[0].env.UV_THREADPOOL_SIZE).toBeUndefined();
  });

  test('cell ids are stable across plans and differ between cells', () => {
    const config = configOf({ matrix: { workload: ['pbkdf2', 'argon2'], cpus: [1, 2] } });
    const first = planExperiments(config, { defaultNodeMajor: 24 })[0];
    const second = planExperiments(config, { defaultNodeMajor: 24 })[0];
    expect(first.cells.map((cell) => cell.cell)).toEqual(second.cells.map((cell) => cell.cell));
    expect(new Set(first.cells.map((cell) => cell.cell)).size).toBe(4);
  });

  test('a duplicate combination from include is one cell', () => {
    const [plan] = planExperiments(
      configOf({
        repetitions: 1,
        matrix: { workload: ['pbkdf2'] },
        include: [{ workload: 'argon2' }, { workload: 'argon2' }],
      }),
      { defaultNodeMajor: 24 },
    );
    expect(plan.cells.map((cell) => cell.workload)).toEqual(['pbkdf2', 'argon2']);
  });

  test('a cell without a workload is a config error with a position', () => {
    const config = configOf({ matrix: { cpus: [1] } });
    expect(() => planExperiments(config, { defaultNodeMajor: 24 })).toThrow(LabError);
    try {
      planExperiments(config, { defaultNodeMajor: 24 });
    } catch (error) {
      expect(error.code).toBe('ERR_CONFIG_INVALID');
      expect(error.format()).toMatch(/^\/tmp\/experiments\.yml:3:5: experiments\.exp\.matrix: a cell has no workload/);
    }
  });

  test('an enormous matrix is refused before anything runs', () => {
    const many = Array.from({ length: 100 }, (_, i) => i + 1);
    const config = configOf({ repetitions: 3, matrix: { workload: ['pbkdf2'], workers: many, cluster: many } });
    expect(() => planExperiments(config, { defaultNodeMajor: 24 })).toThrow(/30000 runs/);
  });

  test('--only narrows to named experiments and rejects unknown names', () => {
    const config = configOf(
      { matrix: { workload: ['pbkdf2'] } },
      { more: [{ ...configOf({ matrix: { workload: ['argon2'] } }).experiments[0], name: 'other' }] },
    );
    expect(
      planExperiments(config, { only: ['other'], defaultNodeMajor: 24 }).map((plan) => plan.experiment.name),
    ).toEqual(['other']);
    expect(() => planExperiments(config, { only: ['nope'], defaultNodeMajor: 24 })).toThrow(
      /--only names no experiment/,
    );
  });

  test('formatRun prints one line per run', () => {
    const [plan] = planExperiments(configOf({ matrix: { workload: ['pbkdf2'], cpus: [1] } }), { defaultNodeMajor: 24 });
    expect(formatRun(plan.runs[0])).toMatch(/^exp cell [0-9a-f]{10} rep 1: workload=pbkdf2 cpus=1$/);
  });
});

describe('cpu limits', () => {
  test('--cpus becomes NanoCpus, cpuset stays a string', () => {
    expect(toHostLimits({ cpus: 0.5, cpuset: '0-1' }, 1)).toEqual({
      nanoCpus: 500_000_000,
      cpusetCpus: '0-1',
      memoryBytes: 1,
    });
  });

  test('parseCpuList reads the kernel list format', () => {
    expect(parseCpuList('0-2,5')).toEqual([0, 1, 2, 5]);
    expect(parseCpuList('0,1')).toEqual(parseCpuList('0-1'));
    expect(parseCpuList('')).toEqual([]);
  });
});

describe('orphan detection', () => {
  test('a container is an orphan when its runner on this host is gone, or it has no owner', async () => {
    const { isOrphan } = await import('../../../runner/docker/runs/cleanup.js');
    const { hostname } = await import('node:os');
    expect(isOrphan(`${hostname()}/123`, () => false)).toBe(true);
    expect(isOrphan(`${hostname()}/123`, () => true)).toBe(false);
    expect(isOrphan(`${hostname()}/${process.pid}`)).toBe(false);
    expect(isOrphan('another-machine/123', () => false)).toBe(false);
    expect(isOrphan(undefined)).toBe(true);
  });
});

test("a capacity search's runs may lag up to 5% of the SLO (at least 2 ms) unless the file says; no SLO, no change", () => {
  const cell = { workload: 'http', values: {}, params: { open: { rate: 100, connections: 1000 } } };
  expect(toRunSpec({ slo: { p99_ms: 100 } }, cell, 1, false, { arrivalRate: 50 }).params.open).toEqual({
    rate: 50,
    connections: 1000,
    max_lag_ms: 5,
  });
  expect(toRunSpec({ slo: { p99_ms: 20 } }, cell, 1).params.open.max_lag_ms).toBe(2);
  const own = { ...cell, params: { open: { rate: 100, max_lag_ms: 1 } } };
  expect(toRunSpec({ slo: { p99_ms: 100 } }, own, 1).params.open.max_lag_ms).toBe(1);
  expect(toRunSpec({}, cell, 1).params.open).toEqual({ rate: 100, connections: 1000 });
});
