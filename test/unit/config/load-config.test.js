import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LabError, LabErrors } from '../../../runner/errors.js';
import { loadConfig, parseYaml, validateConfig } from '../../../runner/config/load-config.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const GOOD = path.join(ROOT, 'test/fixtures/good-configs');
const BAD = path.join(ROOT, 'test/fixtures/bad-configs');
const HOST = { cpus: 2, cpuIds: [0, 1] };

const PBKDF2_DEFAULTS = { tasks: 16, iterations: 100000, keylen: 512, digest: 'sha512', sync: false };
const ARGON2_DEFAULTS = { tasks: 8, memoryCost: 65536, timeCost: 3, parallelism: 4 };
const HTTP_DEFAULTS = {
  work: 'pbkdf2',
  pbkdf2: { iterations: 10000, keylen: 64, digest: 'sha512', sync: false },
  argon2: { memoryCost: 19456, timeCost: 2, parallelism: 1 },
  spin: { ms: 5 },
  template: { rows: 100, page: 'catalogue' },
  server: 'node',
  duration: 10,
  warmup: 3,
  connections: 10,
  pipelining: 1,
  rate: undefined,
  fastProbe: false,
  load: 'loop',
  open: { arrivals: 'poisson', connections: 1000 },
  burst: { requests: 6, rounds: 20, fast: false },
  loader: { cpus: 1, cpuset: 'auto' },
  fault: 'none',
};
const IDLE_DEFAULTS = { tasks: 1, settleMs: 500 };
const SUM_DEFAULTS = { tasks: 1, n: 10_000_000, loop: 'blocks' };
// The user's kinds default only what can be defaulted; their file/argv must be written.
const USER_DEFAULTS = { script: { export: 'default', tasks: 1, args: {} }, command: { tasks: 1 } };

function validate(raw) {
  return validateConfig(raw, { file: 'memory.yml', host: HOST });
}

function catchError(run) {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('the default experiments.yml', () => {
  test('loads with this machine as host and with a 2-CPU host', async () => {
    const file = path.join(ROOT, 'experiments.yml');
    for (const options of [{}, { host: HOST }]) {
      const config = await loadConfig(file, options);
      expect(config.file).toBe(file);
      expect(config.experiments.map((experiment) => experiment.name)).toEqual(['pool-vs-cores']);
    }
  });

  test('normalizes to the documented shape', async () => {
    const config = await loadConfig(path.join(ROOT, 'experiments.yml'), { host: HOST });
    expect(config.experiments[0]).toEqual({
      name: 'pool-vs-cores',
      description: '',
      repetitions: 2,
      warmup: 0,
      adaptive: { max_repetitions: 8, claims: true },
      timeout: 120,
      memory: '1g',
      memory_bytes: 1024 ** 3,
      disturbed_above: 25,
      max_reruns: 2,
      busy_wait: 120,
      env: {},
      matrix: { workload: ['pbkdf2', 'argon2'], cpus: [1, 2], uv_threadpool_size: [1, 2, 4] },
      include: [],
      exclude: [],
      params: {
        pbkdf2: PBKDF2_DEFAULTS,
        argon2: ARGON2_DEFAULTS,
        http: HTTP_DEFAULTS,
        idle: IDLE_DEFAULTS,
        sum: SUM_DEFAULTS,
        ...USER_DEFAULTS,
      },
      claims: [
        expect.objectContaining({
          metric: null,
          compare: { uv_threadpool_size: [1, 4] },
          where: { workload: 'pbkdf2', cpus: 2 },
          expect: { ratio: 0.5, within: 0.2 },
        }),
        expect.objectContaining({ compare: { uv_threadpool_size: [2, 4] }, expect: { same: 0.1 } }),
        expect.objectContaining({
          compare: { uv_threadpool_size: [1, 4] },
          where: { cpus: 1 },
          expect: { above: 0.9 },
        }),
      ],
      recommend: { metric: null, per: null, within: 0.05, prefer: 'fewest', require: {}, default: null },
      search: 'race',
      race: { from_round: 2 },
    });
    expect(config.raw.experiments['pool-vs-cores'].timeout).toBe(120);
  });

  test('locates nodes, and the nearest ancestor of missing ones', async () => {
    const { locate } = await loadConfig(path.join(ROOT, 'experiments.yml'), { host: HOST });
    expect(locate(['experiments', 'pool-vs-cores', 'matrix', 'cpus', 1])).toEqual({ line: 24, column: 17 });
    expect(locate(['experiments', 'pool-vs-cores', 'matrix', 'cpus'])).toEqual({ line: 24, column: 13 });
    expect(locate(['experiments', 'pool-vs-cores', 'matrix', 'cpus'], { key: true })).toEqual({ line: 24, column: 7 });
    expect(locate(['experiments', 'pool-vs-cores', 'matrix', 'cpus', 9])).toEqual({ line: 24, column: 7 });
    expect(locate(['experiments', 'pool-vs-cores', 'nope', 'deeper'])).toEqual({ line: 13, column: 3 });
  });
});

describe('good configs', () => {
  test('every axis, env, include, exclude and params', async () => {
    const config = await loadConfig(path.join(GOOD, 'every-axis.yml'), { host: HOST });
    const [everything, second] = config.experiments;
    expect(everything).toEqual({
      name: 'everything',
      description: 'Every knob at once',
      repetitions: 2,
      warmup: 0,
      // A race by default: the default cap, and rounds for claims still undecided.
      adaptive: { max_repetitions: 8, claims: true },
      search: 'race',
      race: { from_round: 2 },
      timeout: 60.5,
      memory: '1.5g',
      memory_bytes: 1.5 * 1024 ** 3,
      disturbed_above: 40,
      max_reruns: 1,
      busy_wait: 120,
      env: { NODE_OPTIONS: '--max-old-space-size=256', DEBUG_LEVEL: '3', TRACE: 'true' },
      matrix: {
        cpus: [0.5, 1, 1.5, 2],
        cpuset: ['0', '0-1', '0,1', '1'],
        uv_threadpool_size: [1, 4, 1024],
        workers: [0, 2],
        cluster: [0, 2],
        workload: ['pbkdf2', 'argon2'],
        node: [20, 22, 24, 26],
        MALLOC_ARENA_MAX: ['1', '2', 'false'],
      },
      exclude: [
        { cpus: 0.5, uv_threadpool_size: 1024 },
        { workload: 'argon2', MALLOC_ARENA_MAX: 'false' },
      ],
      include: [
        { cpus: 1, cpuset: '0', uv_threadpool_size: 8, workload: 'pbkdf2' },
        { workload: 'pbkdf2', EXTRA_FLAG: '1' },
      ],
      params: {
        pbkdf2: { tasks: 4, iterations: 1000, keylen: 64, digest: 'sha256', sync: true },
        argon2: { tasks: 2, memoryCost: 1024, timeCost: 1, parallelism: 1 },
        http: HTTP_DEFAULTS,
        idle: IDLE_DEFAULTS,
        sum: SUM_DEFAULTS,
        ...USER_DEFAULTS,
      },
    });
    expect(second.matrix).toEqual({ workload: ['argon2'] });
    expect(second.params).toEqual({
      pbkdf2: PBKDF2_DEFAULTS,
      argon2: ARGON2_DEFAULTS,
      http: HTTP_DEFAULTS,
      idle: IDLE_DEFAULTS,
      sum: SUM_DEFAULTS,
      ...USER_DEFAULTS,
    });
  });

  test('shorthand: scalar axes become lists, cpuset and env axes become strings, defaults fill the rest', async () => {
    const config = await loadConfig(path.join(GOOD, 'scalars.yml'), { host: HOST });
    expect(config.experiments).toEqual([
      {
        name: 'shorthand',
        description: '',
        repetitions: 3,
        warmup: 0,
        adaptive: { max_repetitions: 8, claims: true },
        search: 'race',
        race: { from_round: 2 },
        timeout: 300,
        memory: '1g',
        memory_bytes: 1073741824,
        disturbed_above: 25,
        max_reruns: 2,
        busy_wait: 120,
        env: {},
        matrix: { cpus: [1], cpuset: ['0'], workload: ['pbkdf2'], FLAG: ['1'] },
        include: [],
        exclude: [],
        params: {
          pbkdf2: { ...PBKDF2_DEFAULTS, iterations: 10 },
          argon2: ARGON2_DEFAULTS,
          http: HTTP_DEFAULTS,
          idle: IDLE_DEFAULTS,
          sum: SUM_DEFAULTS,
          ...USER_DEFAULTS,
        },
      },
    ]);
  });

  test("repetitions left out: a race's start rounds (the bound rule's n0), a grid's three, and a race's with no knob", () => {
    const config = validate({
      experiments: {
        race: { matrix: { workload: 'pbkdf2', uv_threadpool_size: [1, 4] } },
        included: { matrix: { workload: 'pbkdf2' }, include: [{ workers: 0 }, { workers: 2 }] },
        grid: { search: 'grid', matrix: { workload: 'pbkdf2', uv_threadpool_size: [1, 4] } },
        budgets: { matrix: { workload: ['pbkdf2', 'argon2'], cpus: [1, 2] } },
        given: { search: 'grid', repetitions: 5, matrix: { workload: 'pbkdf2' } },
      },
    });
    expect(config.experiments.map(({ repetitions }) => repetitions)).toEqual([2, 2, 3, 3, 5]);
  });

  test('keeps matrix keys and experiments in file order', () => {
    const config = validate({
      experiments: { b: { matrix: { workload: 'pbkdf2', cpus: 1 } }, a: { matrix: { node: 20, cluster: 0 } } },
    });
    expect(config.experiments.map((experiment) => experiment.name)).toEqual(['b', 'a']);
    expect(Object.keys(config.experiments[0].matrix)).toEqual(['workload', 'cpus']);
    expect(Object.keys(config.experiments[1].matrix)).toEqual(['node', 'cluster']);
  });

  test('memory in bytes for every unit', () => {
    const bytesOf = (memory) =>
      validate({ experiments: { a: { memory, matrix: { cpus: 1 } } } }).experiments[0].memory_bytes;
    expect(bytesOf('16m')).toBe(16 * 1024 ** 2);
    expect(bytesOf('512M')).toBe(512 * 1024 ** 2);
    expect(bytesOf('20000k')).toBe(20000 * 1024);
    expect(bytesOf('2G')).toBe(2 * 1024 ** 3);
    expect(bytesOf('17000000')).toBe(17000000);
    expect(bytesOf('17000000b')).toBe(17000000);
  });

  test('host limits come from the host option', () => {
    const raw = { experiments: { a: { matrix: { cpus: [4], cpuset: '0-3,7' } } } };
    expect(validateConfig(raw, { host: { cpus: 8, cpuIds: [0, 1, 2, 3, 7] } }).experiments[0].matrix).toEqual({
      cpus: [4],
      cpuset: ['0-3,7'],
    });
    expect(catchError(() => validate(raw))).toBeInstanceOf(LabErrors);
  });
});

describe('errors', () => {
  test('several errors in one file are all reported, in file order, each formatted on its own', async () => {
    const file = path.join(BAD, '41-several-errors.yml');
    const error = await loadConfig(file, { host: HOST }).catch((thrown) => thrown);
    expect(error).toBeInstanceOf(LabErrors);
    expect(error.code).toBe('ERR_CONFIG_INVALID');
    expect(error.exitCode).toBe(2);
    expect(error.errors.map((each) => each.path)).toEqual([
      'experiments.pool.repetitions',
      'experiments.pool.matrix.cpus[1]',
      'experiments.pool.matrix.uv_threadpool_size[0]',
      'experiments.pool.matrix.workload',
      'experiments.second.memory',
      'experiments.second.matrix.workers[0]',
    ]);
    const lines = error.format().split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe(`${file}:9:18: experiments.pool.repetitions: expected an integer of 1 or more, found 0`);
    expect(lines[1]).toBe('  write e.g. `repetitions: 3`');
  });

  test('a single error is thrown as a LabError with file, position, path and hint', async () => {
    const file = path.join(BAD, '21-threadpool-2000.yml');
    const error = await loadConfig(file, { host: HOST }).catch((thrown) => thrown);
    expect(error).toBeInstanceOf(LabError);
    expect(error).not.toBeInstanceOf(LabErrors);
    expect(error.format()).toBe(
      [
        `${file}:5:31: experiments.pool.matrix.uv_threadpool_size[1]: expected an integer from 1 to 1024, found 2000`,
        '  write e.g. `uv_threadpool_size: [1, 2, 4]`',
      ].join('\n'),
    );
  });

  test('a missing file is ERR_CONFIG_UNREADABLE naming the path and the reason', async () => {
    const file = path.join(os.tmpdir(), 'no-such-dir-for-config-test', 'experiments.yml');
    const error = await loadConfig(file).catch((thrown) => thrown);
    expect(error).toBeInstanceOf(LabError);
    expect(error.code).toBe('ERR_CONFIG_UNREADABLE');
    expect(error.message).toBe(`cannot read ${file}: no such file or directory (ENOENT)`);
    expect(error.hint).toBe('create it or pass --config FILE');
    expect(error.cause.code).toBe('ENOENT');
  });

  test('a directory is ERR_CONFIG_UNREADABLE too', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'config-test-'));
    const error = await loadConfig(dir).catch((thrown) => thrown);
    expect(error.code).toBe('ERR_CONFIG_UNREADABLE');
    expect(error.message).toContain('(EISDIR)');
  });

  test('a relative path is reported absolute', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'config-test-'));
    writeFileSync(path.join(dir, 'x.yml'), 'experiments: {}\n');
    const error = await loadConfig(path.relative(process.cwd(), path.join(dir, 'x.yml'))).catch((thrown) => thrown);
    expect(error.file).toBe(path.join(dir, 'x.yml'));
  });

  test('validateConfig works on in-memory objects, without positions', () => {
    const error = catchError(() => validate({ experiments: { a: { matrix: { uv_threadpool_size: [2000] } } } }));
    expect(error).toBeInstanceOf(LabError);
    expect(error.format()).toBe(
      [
        'memory.yml: experiments.a.matrix.uv_threadpool_size[0]: expected an integer from 1 to 1024, found 2000',
        '  write e.g. `uv_threadpool_size: [1, 2, 4]`',
      ].join('\n'),
    );
  });

  test('parseYaml returns the object and a locator, and throws on syntax errors', () => {
    const { raw, locate } = parseYaml('experiments:\n  a:\n    matrix: {cpus: [1, 2]}\n', 'x.yml');
    expect(raw).toEqual({ experiments: { a: { matrix: { cpus: [1, 2] } } } });
    expect(locate(['experiments', 'a', 'matrix', 'cpus', 1])).toEqual({ line: 3, column: 24 });
    const error = catchError(() => parseYaml('a: [1\nb: 2\n', 'x.yml'));
    expect(error.code).toBe('ERR_CONFIG_INVALID');
    expect(error.file).toBe('x.yml');
    expect(error.line).toEqual(expect.any(Number));
  });

  test('unknown keys anywhere name the key, list what is allowed and suggest a close name', () => {
    const error = catchError(() =>
      validate({
        experiments: {
          a: {
            timout: 5,
            matrix: { Workload: 'pbkdf2', node_options: 'x', cpu: 1 },
            params: { pbkdf: {}, argon2: { memorycost: 2048 } },
          },
        },
      }),
    );
    expect(error.errors.map((each) => [each.path, each.message, each.hint])).toEqual([
      [
        'experiments.a.timout',
        expect.stringContaining('unknown key `timout` (did you mean `timeout`?); allowed: description'),
        'rename it to `timeout`',
      ],
      [
        'experiments.a.matrix.Workload',
        expect.stringContaining('(did you mean `workload`?)'),
        'rename it to `workload`',
      ],
      [
        'experiments.a.matrix.node_options',
        expect.stringContaining('or an environment variable in UPPER_SNAKE_CASE'),
        'for an environment variable, write it in UPPER_SNAKE_CASE: `NODE_OPTIONS`',
      ],
      ['experiments.a.matrix.cpu', expect.stringContaining('(did you mean `cpus`?)'), 'rename it to `cpus`'],
      [
        'experiments.a.params.pbkdf',
        'unknown workload `pbkdf` (did you mean `pbkdf2`?); params are for: pbkdf2, argon2, http, idle, sum, script, command',
        'rename it to `pbkdf2`',
      ],
      [
        'experiments.a.params.argon2.memorycost',
        expect.stringContaining('(did you mean `memoryCost`?)'),
        'rename it to `memoryCost`',
      ],
    ]);
  });

  test('env names: invalid, reserved, and values that are not scalars', () => {
    const error = catchError(() =>
      validate({
        experiments: { a: { env: { 'my-var': 1, LAB_RUN: 1, OK: [1] }, matrix: { cpus: 1 } } },
      }),
    );
    expect(error.errors.map((each) => [each.path, each.message])).toEqual([
      ['experiments.a.env.my-var', expect.stringContaining('`my-var` is not an environment variable name')],
      ['experiments.a.env.LAB_RUN', expect.stringContaining('reserved')],
      ['experiments.a.env.OK', 'expected a string, number or boolean, found a list'],
    ]);
  });
});
