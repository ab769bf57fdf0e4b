// Disturbed runs through the whole pipeline with the fake executor: the executor says which runs the rest of the
// host disturbed (their `host` reading), the matrix keeps their rows, re-runs each once up to max_reruns a cell,
// the statistics leave them out (unless --keep-disturbed), the reports and run.json count them, and a resume
// continues exactly.
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { readResumeState } from '../../../runner/results/resume.js';
import { readResults } from '../../../runner/results/read-results.js';
import { buildReport } from '../../../runner/report/build-report.js';
import { prepareJobs, runExperiments } from '../../../runner/run/run-experiments.js';
import { main as runCommandLine } from '../../../runner/cli.js';
import { createFakeExecutor, FAKE_CONTEXT as CONTEXT, fakeResult } from '../../../runner/backend/fake.js';
import { createLane } from '../../../runner/backend/contract.js';

const MAX_RERUNS = 2;

function planOf({ keepDisturbed = false, claims } = {}) {
  const experiment = {
    name: 'noisy',
    repetitions: 3,
    timeout: 10,
    memory_bytes: 2 ** 30,
    disturbed_above: 25,
    max_reruns: MAX_RERUNS,
    env: {},
    include: [],
    exclude: [],
    matrix: { workload: ['pbkdf2'], cpus: [2], uv_threadpool_size: [1, 4] },
    params: { pbkdf2: { tasks: 2 } },
    ...(claims ? { claims } : {}),
  };
  return planExperiments(
    { file: 'x.yml', experiments: [experiment] },
    { defaultNodeMajor: 24, seed: 7, keepDisturbed },
  )[0];
}

// A disturbed run: the rest of the host used 1500 ms of CPU over the 1020 ms window at 2 CPUs (73.5%), and the run
// took 10 times as long. Quiet runs: the fake's 4.9%, and wall_ms 100 (pool 1) or 50 (pool 4).
function outcomeOf(isDisturbed) {
  return (run) => {
    const quietWall = run.values.uv_threadpool_size === 1 ? 100 : 50;
    if (!isDisturbed(run)) return { result: fakeResult(run, { wall_ms: quietWall }) };
    return {
      result: fakeResult(run, { wall_ms: quietWall * 10, host: { cpu_ms: 195 + 1500, window_ms: 1020, cpus: 2 } }),
    };
  };
}

async function runPlan(plan, isDisturbed, { signal, resumed } = {}) {
  const out = resumed?.dir ?? mkdtempSync(join(tmpdir(), 'disturbed-'));
  const executor = createFakeExecutor(outcomeOf(isDisturbed));
  const jobs = prepareJobs({ plans: [plan], out, resultsRoot: out, resumed });
  const outcome = await runExperiments({
    jobs,
    lanes: [createLane(executor)],
    context: CONTEXT,
    signal,
    events: new EventEmitter(),
  });
  return { out, executor, outcome };
}

const byRepetition = (rows) => [...rows].sort((a, b) => a.repetition - b.repetition);
const poolOf = (plan, size) => plan.cells.find((cell) => cell.values.uv_threadpool_size === size).cell;

test('each disturbed run is kept and gets one run in its place; the statistics use the others', async () => {
  const plan = planOf();
  const pool1 = poolOf(plan, 1);
  // Repetitions 1 and 2 of pool 1 are disturbed; their re-runs are quiet.
  const { out, executor, outcome } = await runPlan(
    plan,
    (run) => run.cell === pool1 && run.rerunOf === undefined && run.repetition <= 2,
  );
  expect(executor.executed).toHaveLength(6 + 2);
  const results = readResults(out);
  const rows = byRepetition(results.runs.filter((row) => row.cell === pool1));
  expect(rows.map((row) => [row.repetition, row.disturbed, row.rerun_of ?? null])).toEqual([
    [1, true, null],
    [2, true, null],
    [3, false, null],
    [4, false, 1],
    [5, false, 2],
  ]);
  expect(rows[0].interference_pct).toBeCloseTo(73.529, 3);
  expect(rows[0].host_other_cpu_ms).toBe(1500);
  expect(
    results.runs
      .filter((row) => row.cell !== pool1)
      .every((row) => row.disturbed === false && row.rerun_of === undefined),
  ).toBe(true);

  // Left out: pool 1 has its 3 quiet runs (100 ms each), not the 1000 ms ones.
  const summary = readFileSync(join(out, 'summary.csv'), 'utf8');
  expect(summary.split('\r\n')[0]).toMatch(/,n,failed,warmups,disturbed,wall_ms_median,/);
  const report = buildReport(results);
  const cell = report.summary.cells.find((each) => each.cell === pool1);
  expect([cell.n, cell.disturbed, cell.stats.wall_ms.median, cell.stats.wall_ms.max]).toEqual([3, 2, 100, 100]);
  expect(report.counts).toMatchObject({ total: 8, measured: 6, disturbed: 2, reruns: 2 });

  const info = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
  expect(info.summary).toMatchObject({ total: 8, done: 8, ok: 8, disturbed: 2, reruns: 2 });
  expect(outcome.experiments[0].summary).toMatchObject({ disturbed: 2, reruns: 2 });
  const markdown = readFileSync(join(out, 'report.md'), 'utf8');
  expect(markdown).toMatch(/- Runs: 6 measured \(ok, not warm-up, not disturbed\), of 8 in runs.csv/);
  expect(markdown).toMatch(/- Disturbed: 2 run\(s\) \(interference above 25%\): left out of the statistics, 2 re-run/);
  expect(markdown).toMatch(/## Disturbed runs/);
  expect(markdown).toMatch(/\| 1 \| 73\.53 \| 1500 \| repetition 4 \|/);
});

test('re-runs stop at max_reruns a cell even when the re-runs are disturbed too; rows are never dropped', async () => {
  const plan = planOf();
  const pool4 = poolOf(plan, 4);
  const { out, executor } = await runPlan(plan, (run) => run.cell === pool4);
  expect(executor.executed.filter((run) => run.cell === pool4)).toHaveLength(3 + MAX_RERUNS);
  const results = readResults(out);
  const rows = byRepetition(results.runs.filter((row) => row.cell === pool4));
  expect(rows.map((row) => [row.repetition, row.disturbed, row.rerun_of ?? null])).toEqual([
    [1, true, null],
    [2, true, null],
    [3, true, null],
    [4, true, 1],
    [5, true, 2],
  ]);
  const cell = buildReport(results).summary.cells.find((each) => each.cell === pool4);
  expect([cell.n, cell.disturbed]).toEqual([0, 5]);
  expect(buildReport(results).notes.join('\n')).toMatch(/every run of .* was disturbed/);
});

test('--keep-disturbed: disturbed runs count in every statistic and none is re-run; the folder remembers it', async () => {
  const plan = planOf({ keepDisturbed: true });
  const pool1 = poolOf(plan, 1);
  const { out, executor } = await runPlan(plan, (run) => run.cell === pool1 && run.repetition === 1);
  expect(executor.executed).toHaveLength(6);
  expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).keep_disturbed).toBe(true);
  const cellOf = (results) => buildReport(results).summary.cells.find((each) => each.cell === pool1);
  expect(cellOf(readResults(out))).toMatchObject({ n: 3, disturbed: 1 });
  expect(cellOf(readResults(out)).stats.wall_ms.max).toBe(1000);
  expect(cellOf(readResults(out, { keepDisturbed: false }))).toMatchObject({ n: 2, disturbed: 1 });
});

test('verdicts judge the undisturbed runs only: a claim the disturbed runs would break holds', async () => {
  const claims = [
    {
      says: 'pool 4 halves the time',
      metric: null,
      compare: { uv_threadpool_size: [1, 4] },
      where: {},
      expect: { ratio: 0.5, within: 0.1 },
    },
  ];
  const plan = planOf({ claims });
  const pool4 = poolOf(plan, 4);
  // Pool 4's first run is disturbed (500 ms instead of 50); the others agree exactly.
  const { out } = await runPlan(plan, (run) => run.cell === pool4 && run.repetition === 1);
  const judged = (options) =>
    buildReport(readResults(out, options)).verdicts.claims.find((row) => row.kind === 'claim-overall').verdict;
  expect(judged()).toBe('holds');
  expect(judged({ keepDisturbed: true })).not.toBe('holds');
});

test('adaptive rounds judge precision on the undisturbed runs, and every run of a round counts toward max_repetitions (a re-run is bounded apart)', async () => {
  const adaptivePlan = () => {
    const plan = planOf();
    plan.experiment.adaptive = { max_repetitions: 6, target_ci_pct: 5 };
    return plan;
  };
  const pool1Runs = ({ executor }, plan) =>
    executor.executed
      .filter((run) => run.cell === poolOf(plan, 1))
      .map((run) => [run.repetition, run.rerunOf ?? null])
      .sort((a, b) => a[0] - b[0]);
  // Quiet runs agree exactly: only the disturbed one (1000 ms) would have made the cell look imprecise.
  const steady = adaptivePlan();
  const once = await runPlan(steady, (run) => run.cell === poolOf(steady, 1) && run.repetition === 1);
  expect(pool1Runs(once, steady)).toEqual([
    [1, null],
    [2, null],
    [3, null],
    [4, 1],
  ]);

  // Quiet runs that never agree: the cell goes to 6 rounds (its disturbed one among them) and the re-run in its place.
  const noisy = adaptivePlan();
  let count = 0;
  const executor = createFakeExecutor((run) => {
    if (run.cell !== poolOf(noisy, 1)) return {};
    const wall = count++ % 2 === 0 ? 100 : 160;
    if (run.repetition !== 1) return { result: fakeResult(run, { wall_ms: wall }) };
    return { result: fakeResult(run, { wall_ms: wall, host: { cpu_ms: 1695, window_ms: 1020, cpus: 2 } }) };
  });
  const out = mkdtempSync(join(tmpdir(), 'disturbed-'));
  await runExperiments({
    jobs: prepareJobs({ plans: [noisy], out, resultsRoot: out }),
    lanes: [createLane(executor)],
    context: CONTEXT,
    events: new EventEmitter(),
  });
  const rows = readResults(out).runs.filter((row) => row.cell === poolOf(noisy, 1));
  expect([
    rows.length,
    rows.filter((row) => row.disturbed).length,
    rows.filter((row) => row.rerun_of === 1).length,
  ]).toEqual([7, 1, 1]);
});

test('--resume keeps the disturbed rows and finishes the re-runs owed, never passing max_reruns in all', async () => {
  const plan = planOf();
  const pool4 = poolOf(plan, 4);
  const disturbed = (run) => run.cell === pool4;
  // Stopped once 7 runs were handed out: the 6 planned and the first re-run.
  const controller = new AbortController();
  const first = await runPlan(
    plan,
    (run) => {
      if (run.rerunOf !== undefined) controller.abort();
      return disturbed(run);
    },
    { signal: controller.signal },
  );
  expect(first.outcome.stoppedBy).toBe('abort');
  const before = readResults(first.out).runs.filter((row) => row.cell === pool4);
  expect(before.filter((row) => row.rerun_of !== undefined)).toHaveLength(1);

  const resumed = readResumeState(first.out);
  const second = await runPlan(plan, disturbed, { resumed });
  expect(second.executor.executed.map((run) => [run.cell, run.rerunOf])).toEqual([[pool4, 2]]);
  const rows = byRepetition(readResults(first.out).runs.filter((row) => row.cell === pool4));
  expect(rows.map((row) => [row.repetition, row.disturbed, row.rerun_of ?? null])).toEqual([
    [1, true, null],
    [2, true, null],
    [3, true, null],
    [4, true, 1],
    [5, true, 2],
  ]);
  // Resumed again: nothing is owed any more.
  const third = await runPlan(plan, disturbed, { resumed: readResumeState(first.out) });
  expect(third.executor.executed).toEqual([]);
});

test('a resume keeps the choice its folder was started with: --keep-disturbed on a folder started without it is refused', async () => {
  const { out } = await runPlan(planOf(), () => false);
  await expect(runCommandLine(['run', '--resume', out, '--keep-disturbed', '--plan'])).rejects.toMatchObject({
    code: 'ERR_USAGE',
    message: expect.stringMatching(/was started without it/),
  });
});

describe('a host that stays busy', () => {
  // Every run disturbed, claims that cannot be decided and a race whose advice stays open: before, a cell's count
  // toward max_repetitions left its disturbed runs out, so the adaptive rounds never reached the cap.
  test('the whole round loop ends within the "up to" the plan printed', async () => {
    const { countMostExtraRuns } = await import('../../../runner/plan/most-runs.js');
    const { countMostReruns } = await import('../../../runner/rounds/reruns.js');
    const plan = planOf({
      claims: [{ says: 'x', metric: null, compare: { uv_threadpool_size: [1, 4] }, where: {}, expect: { same: 0.01 } }],
    });
    Object.assign(plan.experiment, {
      adaptive: { max_repetitions: 6, claims: true },
      search: 'race',
      race: { from_round: 5 },
      recommend: { metric: null, per: null, within: 0.05, prefer: 'fewest', require: {}, default: null },
      busy_wait: 0,
    });
    const bound = plan.runs.length + countMostExtraRuns(plan).total + countMostReruns(plan);
    const { executor, outcome } = await runPlan(plan, () => true);
    expect(outcome.experiments[0].summary.disturbed).toBe(executor.executed.length);
    expect(executor.executed.length).toBeLessThanOrEqual(bound);
    // And it used what it was allowed: every cell reached its cap of rounds, and its re-runs.
    expect(executor.executed.length).toBe(plan.cells.length * (6 + MAX_RERUNS));
  });
});

describe('waiting for a quiet host (run/busy-gate.js)', () => {
  const busySample = { cpus: 2, cpuMs: 2000, windowMs: 2000 }; // others on 1 of 2 CPUs: 50% of a 2-CPU run
  const quietSample = { cpus: 2, cpuMs: 40, windowMs: 2000 };
  const lanesWith = (executor, samples) => [
    {
      id: 'default#0',
      engine: 'default',
      slot: { index: 0 },
      execute: (run, options) => executor.execute(run, options),
      sampleHost: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return samples.shift() ?? busySample;
      },
    },
  ];

  test('after 3 disturbed runs in a row it samples until the next run would not be disturbed, and says so', async () => {
    const { runMatrix } = await import('../../../runner/run/run-matrix.js');
    const plan = planOf();
    plan.experiment.busy_wait = 60;
    let n = 0;
    const executor = createFakeExecutor(outcomeOf(() => ++n <= 3));
    const events = new EventEmitter();
    const waits = [];
    events.on('busy-wait', (event) => waits.push(event));
    const summary = await runMatrix({
      plan,
      lanes: lanesWith(executor, [busySample, busySample, quietSample]),
      outDir: mkdtempSync(join(tmpdir(), 'busy-')),
      events,
    });
    expect(waits.map((event) => event.phase)).toEqual(['start', 'sample', 'sample', 'sample', 'end']);
    expect(waits[0]).toMatchObject({ streak: 3, leftMs: 60000, disturbedAbove: 25 });
    expect(waits.slice(1, 4).map((event) => [event.contendedPct, event.quiet])).toEqual([
      [50, false],
      [50, false],
      [1, true],
    ]);
    expect(waits[4]).toMatchObject({ outcome: 'quiet' });
    expect(summary).toMatchObject({ busy_waits: 1, busy_runs: 3 });
    expect(summary.busy_wait_ms).toBeGreaterThanOrEqual(10);
  });

  test('a host that stays busy is waited for at most busy_wait in all, then the runs go on, marked', async () => {
    const { runMatrix } = await import('../../../runner/run/run-matrix.js');
    const plan = planOf();
    plan.experiment.busy_wait = 3;
    const executor = createFakeExecutor(outcomeOf(() => true));
    const events = new EventEmitter();
    const ends = [];
    events.on('busy-wait', (event) => event.phase === 'end' && ends.push(event));
    const summary = await runMatrix({
      plan,
      lanes: lanesWith(executor, []),
      outDir: mkdtempSync(join(tmpdir(), 'busy-')),
      events,
    });
    expect(ends).toEqual([expect.objectContaining({ outcome: 'budget' })]);
    // Samples go on while a whole one still fits (2 s each in production; these fakes take 5 ms): never past 3 s.
    expect(summary.busy_wait_ms).toBeGreaterThanOrEqual(1000);
    expect(summary.busy_wait_ms).toBeLessThanOrEqual(3000);
    expect(summary).toMatchObject({ done: 6 + 2 * MAX_RERUNS, disturbed: 6 + 2 * MAX_RERUNS, busy_waits: 1 });
  });

  test('busy_wait: 0 never waits', async () => {
    const { runMatrix } = await import('../../../runner/run/run-matrix.js');
    const plan = planOf();
    plan.experiment.busy_wait = 0;
    const executor = createFakeExecutor(outcomeOf(() => true));
    const sampled = [];
    const lanes = lanesWith(executor, []);
    lanes[0].sampleHost = async () => sampled.push(1);
    const summary = await runMatrix({ plan, lanes, outDir: mkdtempSync(join(tmpdir(), 'busy-')) });
    expect(sampled).toEqual([]);
    expect(summary).toMatchObject({ busy_waits: 0, busy_wait_ms: 0 });
  });
});

test('every phase of a wait reads as a sentence: why it waits, the bound, what it saw, how it ended', async () => {
  const { formatBusyWait } = await import('../../../runner/commands/progress.js');
  expect(formatBusyWait({ phase: 'start', streak: 3, disturbedAbove: 25, leftMs: 120000 })).toBe(
    'host busy: the last 3 runs were disturbed (the rest of the host took more than 25% of the CPU time a run was ' +
      'allowed); waiting up to 120 s for a quiet moment before the next run (`busy_wait` sets the bound)',
  );
  expect(formatBusyWait({ phase: 'sample', contendedPct: 50, otherCpus: 1, quiet: false })).toBe(
    "host sample: others used 1.00 CPUs, 50% of the next run's allowance (busy)",
  );
  expect(formatBusyWait({ phase: 'end', outcome: 'quiet', waitedMs: 14200 })).toBe('host quiet after 14 s: going on');
  expect(
    formatBusyWait({ phase: 'end', outcome: 'budget', waitedMs: 120000, totalMs: 120000, budgetMs: 120000 }),
  ).toMatch(/^host still busy after 120 s \(120 s of the 120 s allowed in all\): going on/);
});
