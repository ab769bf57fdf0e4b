import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { compareSamples, DEFAULT_COMPARISON } from '../../../runner/stats/compare-samples.js';
import { runMatrix } from '../../../runner/run/run-matrix.js';
import { createFakeExecutor, fakeResult } from '../../../runner/backend/fake.js';
import { createLane } from '../../../runner/backend/contract.js';

const REQUIRED_COLUMNS =
  'experiment, cell, repetition, workload, cpus, cpuset, uv_threadpool_size, workers, cluster, node, status, error, wall_ms, seen_available_parallelism, seen_cpu_quota, seen_cpuset, seen_uv_threadpool_size, peak_threads, throttled_periods, throttled_ms, cpu_user_ms, cpu_system_ms, peak_rss_mb, started_at'.split(
    ', ',
  );

function planOf(matrix, repetitions = 1) {
  const config = {
    file: 'x.yml',
    experiments: [
      {
        name: 'exp',
        repetitions,
        timeout: 10,
        memory_bytes: 2 ** 30,
        env: {},
        include: [],
        exclude: [],
        matrix,
        params: { pbkdf2: { tasks: 3 } },
      },
    ],
  };
  return planExperiments(config, { defaultNodeMajor: 24 })[0];
}

function readCsv(dir, name) {
  return parse(readFileSync(join(dir, name), 'utf8'), { columns: true });
}

describe('runMatrix with a fake executor', () => {
  test('one runs.csv row per run, one tasks.csv row per task, every required column', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'matrix-'));
    const plan = planOf({ workload: ['pbkdf2'], cpus: [1, 2], RUN_MODE: ['a'] }, 2);
    const summary = await runMatrix({ plan, lanes: [createLane(createFakeExecutor())], outDir });
    expect(summary).toMatchObject({ total: 4, done: 4, ok: 4, failed: 0, stoppedBy: null });
    const runs = readCsv(outDir, 'runs.csv');
    expect(runs).toHaveLength(4);
    expect(Object.keys(runs[0])).toEqual(
      expect.arrayContaining([...REQUIRED_COLUMNS, 'RUN_MODE', 'container_ms', 'warmup']),
    );
    const one = runs.find((row) => row.cpus === '1');
    expect(one).toMatchObject({
      experiment: 'exp',
      workload: 'pbkdf2',
      cpuset: '',
      status: 'ok',
      error: '',
      seen_cpu_quota: '1',
      RUN_MODE: 'a',
      started_at: '2026-11-22T05:00:00.000Z',
      warmup: 'false',
    });
    const tasks = readCsv(outDir, 'tasks.csv');
    expect(tasks).toHaveLength(12);
    expect(tasks.filter((task) => task.cell === one.cell && task.repetition === one.repetition)[0]).toMatchObject({
      experiment: 'exp',
      task: '0',
      duration_ms: '99.5',
    });
  });

  test('failures become rows with a status word and the reason, and the matrix goes on', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'matrix-'));
    const plan = planOf({ workload: ['pbkdf2'], workers: [0, 1, 2, 3, 4] });
    const outcomes = {
      0: { timedOut: true, exitCode: 137, stdout: '' },
      1: { oomKilled: true, exitCode: 137, stdout: '' },
      2: { exitCode: 3, stdout: '', stderr: 'line 1\nError: boom\n' },
      3: { stdout: 'not json\n' },
    };
    const executor = createFakeExecutor((run) => outcomes[run.values.workers]);
    const summary = await runMatrix({ plan, lanes: [createLane(executor)], outDir });
    expect(summary).toMatchObject({ done: 5, ok: 1, failed: 4 });
    const rows = readCsv(outDir, 'runs.csv').sort((a, b) => Number(a.workers) - Number(b.workers));
    expect(rows.map((row) => row.status)).toEqual(['timeout', 'oom', 'failed', 'failed', 'ok']);
    expect(rows[0].error).toMatch(/10 s timeout/);
    expect(rows[1].error).toMatch(/1g limit/);
    expect(rows[2].error).toBe('workload exited with code 3; stderr: line 1 | Error: boom');
    expect(rows[2].exit_code).toBe('3');
    expect(rows[3].error).toMatch(/no result line/);
    expect(rows[0].wall_ms).toBe('');
  });

  test('--fail-fast stops after the first run that is not ok', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'matrix-'));
    const plan = planOf({ workload: ['pbkdf2'], workers: [0, 1, 2] });
    let count = 0;
    const executor = createFakeExecutor(() => (++count === 2 ? { exitCode: 1, stdout: '' } : {}));
    const summary = await runMatrix({ plan, lanes: [createLane(executor)], outDir, failFast: true });
    expect(summary).toMatchObject({ done: 2, failed: 1, stoppedBy: 'fail-fast' });
    expect(executor.executed).toHaveLength(2);
  });

  test('an aborted run gets no row and no later run starts', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'matrix-'));
    const plan = planOf({ workload: ['pbkdf2'], workers: [0, 1, 2] });
    let count = 0;
    const executor = createFakeExecutor(() => (++count === 2 ? { aborted: true } : {}));
    const summary = await runMatrix({ plan, lanes: [createLane(executor)], outDir });
    expect(summary).toMatchObject({ done: 1, stoppedBy: 'abort' });
    expect(readCsv(outDir, 'runs.csv')).toHaveLength(1);
    expect(executor.executed).toHaveLength(2);
  });

  test('an already aborted signal starts nothing', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'matrix-'));
    const executor = createFakeExecutor();
    const summary = await runMatrix({
      plan: planOf({ workload: ['pbkdf2'] }),
      lanes: [createLane(executor)],
      outDir,
      signal: AbortSignal.abort(),
    });
    expect(summary.stoppedBy).toBe('abort');
    expect(executor.executed).toHaveLength(0);
  });
});

describe('resume and adaptive repetitions', () => {
  test('runs already done are skipped; the rest are appended', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'matrix-'));
    const plan = planOf({ workload: ['pbkdf2'], workers: [0, 1, 2] });
    const done = new Set([plan.runs[0].runKey, plan.runs[2].runKey]);
    const executor = createFakeExecutor();
    const summary = await runMatrix({ plan, lanes: [createLane(executor)], outDir, done });
    expect(summary).toMatchObject({ total: 1, done: 1 });
    expect(executor.executed.map((run) => run.runKey)).toEqual([plan.runs[1].runKey]);
  });

  test('a noisy cell gets more runs until its CI is narrow enough; a steady one does not', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'matrix-'));
    const plan = planOf({ workload: ['pbkdf2'], workers: [0, 1] }, 2);
    plan.experiment.adaptive = { max_repetitions: 6, target_ci_pct: 5 };
    const noisy = [100, 160, 90, 150, 95, 155, 100];
    let n = 0;
    const executor = createFakeExecutor((run) => {
      if (run.values.workers === 1) return {};
      return { result: fakeResult(run, { wall_ms: noisy[n++] }) };
    });
    const summary = await runMatrix({ plan, lanes: [createLane(executor)], outDir });
    const rows = readCsv(outDir, 'runs.csv');
    const count = (workers) => rows.filter((row) => row.workers === String(workers)).length;
    expect(count(1)).toBe(2);
    expect(count(0)).toBe(6);
    expect(
      rows
        .filter((row) => row.workers === '0')
        .map((row) => Number(row.repetition))
        .sort(),
    ).toEqual([1, 2, 3, 4, 5, 6]);
    expect(summary).toMatchObject({ done: 8, total: 8 });
  });

  describe('adaptive: {claims: true}', () => {
    const runWith = async (claim, wallMs) => {
      const outDir = mkdtempSync(join(tmpdir(), 'matrix-'));
      const plan = planOf({ workload: ['pbkdf2'], workers: [0, 1] }, 2);
      plan.experiment.adaptive = { max_repetitions: 8, claims: true };
      plan.experiment.claims = [{ says: 'x', metric: null, compare: { workers: [0, 1] }, where: {}, expect: claim }];
      const counts = { 0: 0, 1: 0 };
      const executor = createFakeExecutor((run) => ({
        result: fakeResult(run, { wall_ms: wallMs[run.values.workers][counts[run.values.workers]++] }),
      }));
      await runMatrix({ plan, lanes: [createLane(executor)], outDir });
      const rows = readCsv(outDir, 'runs.csv');
      return [0, 1].map((workers) => rows.filter((row) => row.workers === String(workers)).length);
    };

    test('a claim already decided adds no run', async () => {
      expect(await runWith({ below: 0.8 }, { 0: [100, 101], 1: [50, 50.5] })).toEqual([2, 2]);
    });

    test('an inconclusive claim gets rounds for its cells until it is decided', async () => {
      const a = [100, 106, 100.5, 100, 100.2, 99.8, 100.1, 100];
      const b = [103.3, 100.3, 100.8, 103, 100.5, 100.1, 100.4, 100.3];
      // The first n at which the default method's 95% interval of B/A lies inside ±5%: more than the 2 planned.
      const rounds = (n) => Array.from({ length: n }, (_, i) => i + 1);
      const decidedAt = [2, 3, 4, 5, 6, 7, 8].find((n) => {
        const { ci_low: low, ci_high: high } = compareSamples(a.slice(0, n), b.slice(0, n), {
          ...DEFAULT_COMPARISON,
          rounds: { a: rounds(n), b: rounds(n) },
        });
        return low > 0.95 && high < 1.05;
      });
      expect(decidedAt).toBeGreaterThan(2);
      expect(await runWith({ same: 0.05 }, { 0: a, 1: b })).toEqual([decidedAt, decidedAt]);
    });

    test('one that stays inconclusive stops at max_repetitions', async () => {
      const wide = [100, 140, 90, 150, 95, 155, 85, 160];
      expect(await runWith({ same: 0.01 }, { 0: wide, 1: [...wide].reverse() })).toEqual([8, 8]);
    });
  });
});

describe('search: race', () => {
  const racePlan = () => {
    const plan = planOf({ workload: ['pbkdf2'], cpus: [2], uv_threadpool_size: [1, 2, 4, 8] }, 3);
    Object.assign(plan.experiment, {
      adaptive: { max_repetitions: 10 },
      search: 'race',
      recommend: { metric: null, per: null, within: 0.05, prefer: 'fewest', require: {}, default: null },
    });
    return plan;
  };
  // Each run's time from its setting and its round alone, so that a resumed race sees what an unbroken one saw.
  const executorOf = (truth, wobbleOf) =>
    createFakeExecutor((run) => ({
      result: fakeResult(run, {
        wall_ms: truth[run.values.uv_threadpool_size] * wobbleOf(run.values.uv_threadpool_size, run.repetition),
      }),
    }));
  const countsOf = (rows) =>
    [1, 2, 4, 8].map((pool) => rows.filter((row) => row.uv_threadpool_size === String(pool)).length);

  test('a budget settled by the planned rounds races no further: fewer runs than the grid', async () => {
    // Pool 1 takes twice as long; pools 2, 4 and 8 are within 1% of each other; every run within ±0.25%.
    const truth = { 1: 2000, 2: 1000, 4: 1004, 8: 1008 };
    const outDir = mkdtempSync(join(tmpdir(), 'race-'));
    const plan = racePlan();
    await runMatrix({
      plan,
      lanes: [createLane(executorOf(truth, (pool, round) => 1 + (((round + pool) % 3) - 1) * 0.0025))],
      outDir,
    });
    expect(countsOf(readCsv(outDir, 'runs.csv'))).toEqual([3, 3, 3, 3]);
    const { replayRace } = await import('../../../runner/rounds/race.js');
    const { readResults } = await import('../../../runner/results/read-results.js');
    expect(replayRace(plan, readResults(outDir).runs).open).toEqual(new Set());
  });

  test('after the start rounds only the cheaper candidate and the setting that binds its bound run on', async () => {
    // Pool 1 is twice as slow (out at once); Node's default pool 4 — first in the cost order: at equal processes and
    // memory, the setting the service runs today — is 2% slower than 2 and 8, every run ±2%: not yet shown within 5%
    // at the first look, but it can be by the cap, so it races on with the settings that bind its bound.
    const truth = { 1: 2000, 2: 1000, 4: 1020, 8: 1000 };
    const wobble = [0.98, 1.02, 1.0, 0.99, 1.01];
    const outDir = mkdtempSync(join(tmpdir(), 'race-'));
    await runMatrix({
      plan: racePlan(),
      lanes: [createLane(executorOf(truth, (pool, round) => wobble[(round + pool) % 5]))],
      outDir,
    });
    const rows = readCsv(outDir, 'runs.csv');
    const [one, , four] = countsOf(rows);
    expect(one).toBe(3);
    expect(four).toBeGreaterThan(3);
    expect(four).toBeLessThanOrEqual(10);
    // Each round after the start: pool 4 and the settings that bind its bound, side by side (one round label); never
    // pool 1, and soon only pool 4 and one other.
    const later = [...new Set(rows.map((row) => Number(row.repetition)).filter((round) => round > 3))];
    const poolsOf = (round) =>
      rows
        .filter((row) => Number(row.repetition) === round)
        .map((row) => row.uv_threadpool_size)
        .sort();
    for (const round of later) {
      expect(poolsOf(round)).toContain('4');
      expect(poolsOf(round)).not.toContain('1');
    }
    expect(later.some((round) => poolsOf(round).length === 2)).toBe(true);
  });

  test('a resumed race continues exactly where it stopped', async () => {
    const truth = { 1: 2000, 2: 1000, 4: 1020, 8: 1000 };
    const wobble = [0.98, 1.02, 1.0, 0.99, 1.01];
    const wobbleOf = (pool, round) => wobble[(round + pool) % 5];
    const { readResults } = await import('../../../runner/results/read-results.js');
    const whole = mkdtempSync(join(tmpdir(), 'race-'));
    await runMatrix({ plan: racePlan(), lanes: [createLane(executorOf(truth, wobbleOf))], outDir: whole });
    const outDir = mkdtempSync(join(tmpdir(), 'race-'));
    const controller = new AbortController();
    let finished = 0;
    const events = new (await import('node:events')).EventEmitter();
    events.on('run-end', () => {
      // Stopped after the three start rounds and the first raced round (pools 4 and 2): at a round's end.
      if (++finished === 14) controller.abort();
    });
    await runMatrix({
      plan: racePlan(),
      lanes: [createLane(executorOf(truth, wobbleOf))],
      outDir,
      signal: controller.signal,
      events,
    });
    const before = readResults(outDir).runs;
    expect(before.length).toBe(14);
    await runMatrix({
      plan: racePlan(),
      lanes: [createLane(executorOf(truth, wobbleOf))],
      outDir,
      done: new Set(before.map((row) => `${row.cell}.${row.repetition}`)),
      previousRows: before,
    });
    const key = (row) => `${row.cell}.${row.repetition}`;
    expect(readResults(outDir).runs.map(key).sort()).toEqual(readResults(whole).runs.map(key).sort());
  });
});
