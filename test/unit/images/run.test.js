// Runs images/workload/run.js on the host, as the container's entrypoint would run it, with small
// parameters. Counters that depend on the host's cgroup are only checked for their shape here.
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const RUN_JS = fileURLToPath(new URL('../../../images/workload/run.js', import.meta.url));
const [UV_MAJOR, UV_MINOR] = process.versions.uv.split('.').map(Number);
// pool_threads is counted by thread name, which libuv gives its pool threads from 1.50 on.
const POOL_NAMED = UV_MAJOR > 1 || UV_MINOR >= 50;
const SMALL_PBKDF2 = { tasks: 8, iterations: 1000, keylen: 64 };
const RESULT_KEYS = [
  'workload',
  'wall_ms',
  'setup_ms',
  'tasks',
  'seen',
  'peak_threads',
  'pool_threads',
  'throttled_periods',
  'nr_periods',
  'throttled_ms',
  'cpu_user_ms',
  'cpu_system_ms',
  'cpu_total_ms',
  'peak_rss_mb',
  'cgroup_memory_peak_mb',
  'host',
  'metrics',
];

function runWorkload(spec, env = {}) {
  const labSpec = typeof spec === 'string' ? spec : JSON.stringify(spec);
  return execa(process.execPath, [RUN_JS], {
    env: { LAB_SPEC: labSpec, UV_THREADPOOL_SIZE: undefined, ...env },
    reject: false,
    timeout: 60_000,
  });
}

async function runOk(spec, env) {
  const run = await runWorkload(spec, env);
  if (run.exitCode !== 0) throw new Error(`run.js exited ${run.exitCode}: ${run.stderr}`);
  const lines = run.stdout.split('\n');
  expect(lines).toHaveLength(1);
  const result = JSON.parse(lines[0]);
  expect(Object.keys(result)).toEqual(RESULT_KEYS);
  checkTimes(result);
  return result;
}

function checkTimes(result) {
  expect(result.tasks.map((task) => task.task)).toEqual(result.tasks.map((_, index) => index));
  const starts = result.tasks.map((task) => task.start_ms);
  const ends = result.tasks.map((task) => task.end_ms);
  for (const task of result.tasks) expect(task.end_ms).toBeGreaterThanOrEqual(task.start_ms);
  expect(result.setup_ms).toBeCloseTo(Math.min(...starts), 2);
  expect(result.wall_ms).toBeCloseTo(Math.max(...ends) - Math.min(...starts), 2);
  // The host's /proc/stat is read around the cgroup counters, so its window holds every task.
  expect(result.host).toEqual({ cpu_ms: expect.any(Number), window_ms: expect.any(Number), cpus: os.cpus().length });
  expect(result.host.window_ms).toBeGreaterThanOrEqual(result.wall_ms);
}

const places = (result) => result.tasks.map(({ process, thread }) => [process, thread]);

/** Tasks on one thread whose work is synchronous cannot overlap: each starts after the previous ends. */
function expectSerialPerThread(result) {
  const byThread = Map.groupBy
    ? Map.groupBy(result.tasks, (task) => `${task.process}/${task.thread}`)
    : result.tasks.reduce(
        (groups, task) =>
          groups.set(`${task.process}/${task.thread}`, [...(groups.get(`${task.process}/${task.thread}`) ?? []), task]),
        new Map(),
      );
  for (const tasks of byThread.values()) {
    for (let i = 1; i < tasks.length; i += 1) expect(tasks[i].start_ms).toBeGreaterThanOrEqual(tasks[i - 1].end_ms);
  }
}

describe('workload run.js on the host', () => {
  test('plain: every task on the main thread of the single process, with what the process saw', async () => {
    const result = await runOk({ workload: 'pbkdf2', params: SMALL_PBKDF2 });
    expect(result.workload).toBe('pbkdf2');
    expect(places(result)).toEqual(Array(8).fill([0, 0]));
    expect(result.seen).toMatchObject({ uv_threadpool_size: 4, node_version: process.version });
    expect(result.seen.available_parallelism).toBeGreaterThanOrEqual(1);
    expect(result.seen.cpus_length).toBeGreaterThanOrEqual(1);
    expect(result.peak_threads).toBeGreaterThanOrEqual(5);
    expect(result.pool_threads).toBe(POOL_NAMED ? 4 : null);
    expect(result.peak_rss_mb).toBeGreaterThan(10);
    // On the host these are the root cgroup's counters (the whole machine); a tiny run may add 0.
    expect(result.cpu_user_ms).toBeGreaterThanOrEqual(0);
    expect(typeof result.throttled_periods === 'number' || result.throttled_periods === null).toBe(true);
    expect(result.metrics).toEqual({});
  });

  test('workers 2: tasks dealt round-robin over worker threads 1 and 2, which share the one pool', async () => {
    const result = await runOk({ workload: 'pbkdf2', params: SMALL_PBKDF2, workers: 2 });
    expect(places(result)).toEqual([
      [0, 1],
      [0, 2],
      [0, 1],
      [0, 2],
      [0, 1],
      [0, 2],
      [0, 1],
      [0, 2],
    ]);
    expect(result.pool_threads).toBe(POOL_NAMED ? 4 : null);
  });

  test('cluster 2: tasks dealt round-robin over processes 1 and 2, each with its own pool', async () => {
    const result = await runOk({ workload: 'pbkdf2', params: SMALL_PBKDF2, cluster: 2 });
    expect(places(result)).toEqual([
      [1, 0],
      [2, 0],
      [1, 0],
      [2, 0],
      [1, 0],
      [2, 0],
      [1, 0],
      [2, 0],
    ]);
    expect(result.pool_threads).toBe(POOL_NAMED ? 8 : null);
    // The primary plus two children, each with its own main, V8 and pool threads.
    expect(result.peak_threads).toBeGreaterThanOrEqual(15);
  });

  test('cluster 2 × workers 2: each process deals its hand over its own worker threads', async () => {
    const result = await runOk({ workload: 'pbkdf2', params: SMALL_PBKDF2, cluster: 2, workers: 2 });
    // Process 1 gets tasks 0 2 4 6 and deals them 0→1, 2→2, 4→1, 6→2; process 2 the same with 1 3 5 7.
    expect(places(result)).toEqual([
      [1, 1],
      [2, 1],
      [1, 2],
      [2, 2],
      [1, 1],
      [2, 1],
      [1, 2],
      [2, 2],
    ]);
  });

  test('sync pbkdf2 runs one task after another on each thread and never starts the pool', async () => {
    const params = { ...SMALL_PBKDF2, tasks: 4, sync: true };
    const plain = await runOk({ workload: 'pbkdf2', params });
    expectSerialPerThread(plain);
    expect(plain.pool_threads).toBe(POOL_NAMED ? 0 : null);
    const workers = await runOk({ workload: 'pbkdf2', params, workers: 2 });
    expect(places(workers)).toEqual([
      [0, 1],
      [0, 2],
      [0, 1],
      [0, 2],
    ]);
    expectSerialPerThread(workers);
  });

  test('UV_THREADPOOL_SIZE=1 finishes async tasks one by one, in the order they were queued', async () => {
    const params = { tasks: 4, iterations: 5000, keylen: 64 };
    const single = await runOk({ workload: 'pbkdf2', params }, { UV_THREADPOOL_SIZE: '1' });
    expect(single.seen.uv_threadpool_size).toBe(1);
    expect(single.pool_threads).toBe(POOL_NAMED ? 1 : null);
    const ends = single.tasks.map((task) => task.end_ms);
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    const unset = await runOk({ workload: 'pbkdf2', params });
    expect(unset.seen.uv_threadpool_size).toBe(4);
    const odd = await runOk({ workload: 'pbkdf2', params: { ...params, tasks: 1 } }, { UV_THREADPOOL_SIZE: 'abc' });
    expect(odd.seen.uv_threadpool_size).toBe(1);
  });

  test('argon2: hashes verified, plain and over cluster processes with worker threads', async () => {
    const params = { tasks: 4, memoryCost: 1024, timeCost: 1, parallelism: 2 };
    const plain = await runOk({ workload: 'argon2', params });
    expect(places(plain)).toEqual(Array(4).fill([0, 0]));
    const spread = await runOk({ workload: 'argon2', params, cluster: 2, workers: 2 });
    expect(places(spread)).toEqual([
      [1, 1],
      [2, 1],
      [1, 2],
      [2, 2],
    ]);
    // argon2 starts threads of its own named like their pool thread; they must not count as pool.
    expect(spread.pool_threads).toBe(POOL_NAMED ? 8 : null);
  });

  test('speed probe: timed before t0, outside every time the run reports', async () => {
    const run = await runWorkload({ workload: 'pbkdf2', params: SMALL_PBKDF2, speed_probe: true });
    expect(run.exitCode).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(Object.keys(result)).toEqual([...RESULT_KEYS, 'speed_probe']);
    checkTimes(result);
    expect(result.speed_probe).toEqual({ wall_ms: expect.any(Number), cpu_ms: expect.any(Number) });
    expect(result.speed_probe.cpu_ms).toBeGreaterThan(0);
    // setup_ms starts at t0, after the probe: a tiny run's setup is far below the probe's time.
    expect(result.setup_ms).toBeLessThan(result.speed_probe.wall_ms);
  });

  test.each([
    ['the main thread', {}],
    ['worker threads', { workers: 2 }],
    ['cluster processes with worker threads', { cluster: 2, workers: 2 }],
  ])('batches on %s: warm-up then measured passes of every task, wall_ms their median', async (_, spread) => {
    const spec = { workload: 'pbkdf2', params: SMALL_PBKDF2, ...spread, batches: { count: 3, warmup: 1 } };
    const run = await runWorkload(spec);
    expect(run.exitCode).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(Object.keys(result)).toEqual([...RESULT_KEYS, 'batches']);
    expect(result.batches).toMatchObject({ count: 3, warmup: 1, aggregate: 'median' });
    expect(result.batches.walls_ms).toHaveLength(3);
    expect(result.batches.warmup_walls_ms).toHaveLength(1);
    expect(result.wall_ms).toBe([...result.batches.walls_ms].sort((a, b) => a - b)[1]);
    for (const batch of [0, 1, 2, 3]) {
      const tasks = result.tasks.filter((task) => task.batch === batch);
      expect(tasks.map((task) => task.task)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      // Each batch is timed from its own start, so its wall is its last end less its first start.
      const wall = Math.max(...tasks.map((task) => task.end_ms)) - Math.min(...tasks.map((task) => task.start_ms));
      const recorded = batch === 0 ? result.batches.warmup_walls_ms[0] : result.batches.walls_ms[batch - 1];
      expect(wall).toBeCloseTo(recorded, 1);
      expect(Math.min(...tasks.map((task) => task.start_ms))).toBeLessThan(recorded);
    }
    expect(result.tasks).toHaveLength(32);
  });

  test.each([
    ['not JSON', '{"workload":'],
    ['an unknown workload', { workload: 'scrypt' }],
    ['a negative worker count', { workload: 'pbkdf2', workers: -1 }],
    ['an unknown parameter', { workload: 'pbkdf2', params: { rounds: 3 } }],
    ['batches for a workload without a fixed body', { workload: 'idle', batches: { count: 2 } }],
    ['batches of no batch', { workload: 'pbkdf2', batches: { count: 0 } }],
    ['a probe that is not a boolean', { workload: 'pbkdf2', speed_probe: 'yes' }],
  ])('a spec with %s exits 2 with one line on stderr and nothing on stdout', async (_, spec) => {
    const run = await runWorkload(spec);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^workload failed: LAB_SPEC/);
  });

  test.each([
    ['the main thread', {}],
    ['a worker thread', { workers: 2 }],
    ['a cluster process', { cluster: 2 }],
    ['a worker thread in a cluster process', { cluster: 2, workers: 2 }],
  ])('a task that fails in %s fails the run with its reason and no result', async (_, spread) => {
    // Passes spec checks (keylen has no upper bound in the params table); crypto refuses it when the task runs.
    const params = { tasks: 2, keylen: 2 ** 32 };
    const run = await runWorkload({ workload: 'pbkdf2', params, ...spread });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/task \d: The value of "keylen" is out of range/);
  });

  test('a cluster process that dies fails the run, and the primary takes the other one down with it', async () => {
    const run = runWorkload({
      workload: 'pbkdf2',
      params: { tasks: 4, iterations: 5_000_000, keylen: 64 },
      cluster: 2,
    });
    const children = await waitForChildren(run.pid, 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.kill(children[0], 'SIGKILL');
    const finished = await run;
    expect(finished.exitCode).toBe(1);
    expect(finished.stdout).toBe('');
    expect(finished.stderr).toMatch(
      new RegExp(`cluster process \\d \\(pid ${children[0]}\\) exited \\(signal SIGKILL\\) before finishing its tasks`),
    );
    expect(isAlive(children[1])).toBe(false);
  });
});

async function waitForChildren(pid, count) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    if (children.length >= count) return children;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run.js (pid ${pid}) did not fork ${count} cluster processes`);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
