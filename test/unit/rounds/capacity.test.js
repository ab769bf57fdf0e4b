// The capacity search: a cell's bracket from its runs (verdicts/capacity.js), and the rounds it asks for through the
// run loop with a fake executor whose p99 is a known function of the rate (rounds/capacity.js), resumed exactly.
import { mkdtempSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseYaml, validateConfig } from '../../../runner/config/load-config.js';
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { readResults } from '../../../runner/results/read-results.js';
import { judgeCapacityCells } from '../../../runner/rounds/capacity.js';
import { runMatrix } from '../../../runner/run/run-matrix.js';
import { buildCapacity } from '../../../runner/report/capacity.js';
import { createGrid, judgeCapacity } from '../../../runner/verdicts/capacity.js';
import { createLane } from '../../../runner/backend/contract.js';
import { createFakeExecutor, fakeResult } from '../../../runner/backend/fake.js';

const SLO = { sloMs: 50, startRate: 100, resolution: 0.2, cap: 12 };
const run = (rate, p99, extra = {}) => ({ rate, p99, ...extra });

describe('judgeCapacity: one cell', () => {
  const grid = createGrid(100, 0.2);

  test('doubles while within the SLO, halves while over, on a grid through the start rate', () => {
    expect(grid.rateAt(0)).toBe(100);
    // Two steps make the resolution (×1.2): 8 steps make about a doubling.
    expect(grid.rateAt(2)).toBe(120);
    expect(grid.rateAt(grid.doubling)).toBe(207);
    expect(judgeCapacity([run(100, 10)], SLO)).toMatchObject({ next: grid.rateAt(grid.doubling), status: 'open' });
    expect(judgeCapacity([run(100, 400)], SLO)).toMatchObject({ next: grid.rateAt(-grid.doubling), status: 'open' });
  });

  test('no run counted yet: the start rate again', () => {
    expect(judgeCapacity([], SLO)).toMatchObject({ next: 100, status: 'open', lowPoint: null, highPoint: null });
  });

  test('a run that failed at its rate is a point over the SLO: the search turns down from it', () => {
    const judged = judgeCapacity([run(100, 10), run(grid.rateAt(grid.doubling), Infinity, { counted: false })], SLO);
    expect(judged).toMatchObject({ lowPoint: 100, highPoint: grid.rateAt(grid.doubling), high: null });
    expect(judged.next).toBe(grid.rateAt(Math.floor(grid.doubling / 2)));
  });

  test('bisects between the last rate within and the first over', () => {
    const runs = [run(100, 10), run(grid.rateAt(grid.doubling), 400)];
    const judged = judgeCapacity(runs, SLO);
    expect(judged).toMatchObject({ lowPoint: 100, highPoint: grid.rateAt(grid.doubling) });
    expect(judged.next).toBe(grid.rateAt(Math.floor(grid.doubling / 2)));
  });

  test('repeats the ends until each is shown, then settles with the bracket', () => {
    const low = grid.rateAt(0);
    const high = grid.rateAt(1);
    // Neighbours on the grid, far from the SLO on either side, the spread known from repeats.
    const runs = [run(low, 30), run(low, 31), run(high, 90), run(high, 88)];
    const judged = judgeCapacity(runs, SLO);
    expect(judged).toMatchObject({ status: 'settled', low, high, next: null, stop: 'settled' });
    expect(judged.rates.map((rate) => rate.state)).toEqual(['within', 'over']);
    // One run each: no spread of its own to show anything with.
    expect(judgeCapacity([run(low, 30), run(high, 90)], SLO)).toMatchObject({ status: 'open', low: null, high: null });
  });

  test('the spread pools with the other cells: a single run a rate can be shown', () => {
    const others = [[run(100, 40), run(100, 41), run(100, 39)]];
    const judged = judgeCapacity([run(grid.rateAt(0), 20), run(grid.rateAt(1), 150)], SLO, others);
    expect(judged).toMatchObject({ status: 'settled', low: grid.rateAt(0), high: grid.rateAt(1) });
  });

  test('stops at the cap, open, with what is shown', () => {
    // Both rates straddle the SLO run after run: neither is ever shown on one side.
    const runs = Array.from({ length: 12 }, (_, i) => run(grid.rateAt(i % 2), [44, 46, 56, 55][i % 4]));
    expect(judgeCapacity(runs, SLO)).toMatchObject({ status: 'open', next: null, stop: 'cap', runs: 12 });
  });

  test('a run that waited for connections is a point over the SLO, in no interval and no spread', () => {
    const judged = judgeCapacity([run(100, 10), run(grid.rateAt(grid.doubling), 5000, { counted: false })], SLO);
    expect(judged.highPoint).toBe(grid.rateAt(grid.doubling));
    expect(judged.high).toBeNull();
    expect(judged.rates[1]).toMatchObject({ n: 0, state: 'unclear' });
  });
});

describe('the capacity search through the run loop', () => {
  const CONFIG = `experiments:
  capacity:
    memory: 512m
    timeout: 60
    matrix: {workload: [http], cpus: [1], uv_threadpool_size: [1, 4]}
    params:
      http: {load: open, open: {rate: 100}, duration: 5}
    slo: {p99_ms: 50}
`;
  // p99 is 50 ms at 150 req/s (pool 4) or 110 (pool 1) and doubles every 40 req/s more; ±3% by round, the same
  // whenever it is run.
  const knee = { 1: 110, 4: 150 };
  const p99Of = (run) =>
    25 *
    2 ** ((run.params.open.rate - knee[run.values.uv_threadpool_size]) / 40 + 1) *
    (1 + ((run.repetition % 3) - 1) * 0.03);
  const executor = () =>
    createFakeExecutor((run) => ({
      result: fakeResult(run, {
        workload: 'http',
        tasks: [],
        metrics: {
          arrival_rate: run.params.open.rate,
          latency_p99_ms: p99Of(run),
          loader_behind: false,
          loader_queued: 0,
        },
      }),
    }));
  const planOf = async () => {
    const { raw, locate } = parseYaml(CONFIG, '/tmp/capacity.yml');
    const config = validateConfig(raw, { file: '/tmp/capacity.yml', locate, host: { cpus: 2, cpuIds: [0, 1] } });
    return planExperiments(config, { defaultNodeMajor: 24, seed: 5 })[0];
  };
  // The rate at which p99 is 50 ms: the knee.
  const capacityOf = (pool) => knee[pool];

  test('each cell brackets its own capacity, shown at both ends, within the resolution', async () => {
    const plan = await planOf();
    expect(plan.experiment).toMatchObject({ slo: { p99_ms: 50, resolution: 0.2 }, repetitions: 1, search: 'grid' });
    const outDir = mkdtempSync(join(tmpdir(), 'capacity-'));
    await runMatrix({ plan, lanes: [createLane(executor())], outDir });
    const { runs } = readResults(outDir);
    const judged = judgeCapacityCells(plan, runs);
    for (const cell of plan.cells) {
      const bracket = judged.get(cell.cell);
      const capacity = capacityOf(cell.values.uv_threadpool_size);
      expect(bracket.status).toBe('settled');
      expect(bracket.low).toBeLessThanOrEqual(capacity);
      expect(bracket.high).toBeGreaterThanOrEqual(capacity);
      expect(bracket.high / bracket.low).toBeLessThanOrEqual(1.2 * 1.005);
      expect(runs.filter((row) => row.cell === cell.cell).length).toBeLessThanOrEqual(12);
    }
    // The answer per budget, from the folder: the setting with the most shown within first, Node's default beside it.
    const capacity = buildCapacity({
      ...readResults(outDir),
      info: { experiment: 'capacity', config: plan.experiment, cells: plan.cells },
    });
    const [answer] = capacity.answers;
    const four = judged.get(plan.cells.find((cell) => cell.values.uv_threadpool_size === 4).cell);
    const one = judged.get(plan.cells.find((cell) => cell.values.uv_threadpool_size === 1).cell);
    expect(answer).toMatchObject({ budget: 'cpus=1', status: 'settled', loader_shared: false });
    expect(answer.words).toBe(
      `cpus=1 (http, p99 ≤ 50 ms): serves at most ${four.low} req/s within the SLO (95%; over it at ${four.high} req/s) ` +
        `with uv_threadpool_size=4; that is Node's default; uv_threadpool_size=1: at most ${one.low} req/s (over it at ${one.high}); settled.`,
    );
    expect(capacity.rows.map((row) => [row.setting, row.low, row.high])).toEqual([
      ['uv_threadpool_size=4', four.low, four.high],
      ['uv_threadpool_size=1', one.low, one.high],
    ]);
    // Rounds as blocks: every repetition number after the first round holds at most one run of each cell.
    const rounds = new Map();
    for (const row of runs) rounds.set(row.repetition, [...(rounds.get(row.repetition) ?? []), row.cell]);
    for (const cells of rounds.values()) expect(new Set(cells).size).toBe(cells.length);
  });

  test('a failed run keeps its rate (the row says it), and the search does not ask for that rate again', async () => {
    const plan = await planOf();
    const outDir = mkdtempSync(join(tmpdir(), 'capacity-'));
    // Above 180 req/s the server cannot finish: the run fails, as one killed for memory or time would.
    const failing = createFakeExecutor((run) =>
      run.params.open.rate > 180
        ? { exitCode: 137, stdout: '', stderr: 'killed' }
        : {
            result: fakeResult(run, {
              workload: 'http',
              tasks: [],
              metrics: { arrival_rate: run.params.open.rate, latency_p99_ms: p99Of(run), loader_behind: false },
            }),
          },
    );
    await runMatrix({ plan, lanes: [createLane(failing)], outDir });
    const { runs } = readResults(outDir);
    const failed = runs.filter((row) => row.status !== 'ok');
    expect(failed.length).toBeGreaterThan(0);
    for (const row of failed) {
      expect(row.arrival_rate).toBeGreaterThan(180);
      expect(runs.filter((other) => other.cell === row.cell && other.arrival_rate === row.arrival_rate)).toHaveLength(
        1,
      );
    }
    for (const bracket of judgeCapacityCells(plan, runs).values()) expect(bracket.status).toBe('settled');
  });

  test('a resumed search asks for the same rates again', async () => {
    const whole = mkdtempSync(join(tmpdir(), 'capacity-'));
    await runMatrix({ plan: await planOf(), lanes: [createLane(executor())], outDir: whole });
    const outDir = mkdtempSync(join(tmpdir(), 'capacity-'));
    const controller = new AbortController();
    const events = new EventEmitter();
    let finished = 0;
    events.on('run-end', () => {
      if (++finished === 5) controller.abort();
    });
    const lanes = [createLane(executor())];
    await runMatrix({ plan: await planOf(), lanes, outDir, signal: controller.signal, events });
    const before = readResults(outDir).runs;
    await runMatrix({
      plan: await planOf(),
      lanes: [createLane(executor())],
      outDir,
      done: new Set(before.map((row) => `${row.cell}.${row.repetition}`)),
      previousRows: before,
    });
    const key = (row) => `${row.cell}.${row.repetition}@${row.arrival_rate}`;
    expect(readResults(outDir).runs.map(key).sort()).toEqual(readResults(whole).runs.map(key).sort());
  });
});
