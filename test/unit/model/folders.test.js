// The capacity model against the committed results folders (real runs of the published experiments, copied to
// test/fixtures/results/): the data is committed, so these are deterministic. What the model must get right on this
// 2-CPU host is where CPU is the whole story: pbkdf2 in waves over the pool, at every quota.
import { fileURLToPath } from 'node:url';
import { readResults } from '../../../runner/results/read-results.js';
import { summarizeCells } from '../../../runner/report/summary.js';
import { calibrateGroup, formatCalibrationKey, solveLeastSquares } from '../../../runner/model/calibrate.js';
import { modelRatio, modelRatioRange, predictCell, predictCells } from '../../../runner/model/predict.js';
import { toModelCell } from '../../../runner/model/model-cell.js';
import { buildModelTables } from '../../../runner/report/model-table.js';
import { median } from '../../../runner/stats/statistics.js';

const findings = (name) => fileURLToPath(new URL(`../../fixtures/results/${name}`, import.meta.url));
const fixture = (name) => fileURLToPath(new URL(`../../fixtures/results/${name}`, import.meta.url));
const summaryOf = (dir) => summarizeCells(readResults(dir));
const deviation = (row, metric) => Math.abs(row[`model_${metric}`] / row[`${metric}_median`] - 1);

describe('pbkdf2: model_wall_ms within 10% of the median in every cell', () => {
  test.each([
    ['pbkdf2-waves (pool 1, 4, 8 at 2 CPUs)', findings('pbkdf2-waves')],
    ['recheck-pbkdf2-quota (sync calls, workers × cpus 0.5, 1, 2)', fixture('recheck-pbkdf2-quota')],
    ['pool-vs-cores (pool 1–8 × cpus 1, 2)', fixture('pool-vs-cores')],
  ])('%s', (_name, dir) => {
    const rows = summaryOf(dir).rows.filter((row) => row.workload === 'pbkdf2');
    expect(rows.length).toBeGreaterThan(2);
    // Cell by cell, so a failure names the cell.
    expect(rows.map((row) => [row.cell, deviation(row, 'wall_ms') < 0.1])).toEqual(rows.map((row) => [row.cell, true]));
  });

  test('summary.csv has model_wall_ms after the wall_ms statistics', () => {
    const { columns } = summaryOf(findings('pbkdf2-waves'));
    expect(columns.indexOf('model_wall_ms')).toBe(columns.indexOf('wall_ms_outliers') + 1);
  });
});

describe('on a busy host: the CPUs the rest of the host left each cell (docs/model-check, copied to the fixtures)', () => {
  const check = fixture;
  const folders = ['model-check', 'model-check-50k', 'model-check-b'];

  test.each(folders)('%s: every cell within 10% of the model, every run kept', (name) => {
    const { rows } = summarizeCells(readResults(check(name), { keepDisturbed: true }));
    expect(rows).toHaveLength(6);
    expect(rows.map((row) => [row.cell, deviation(row, 'wall_ms') < 0.1])).toEqual(rows.map((row) => [row.cell, true]));
  });

  test('the cause: a call costs the same CPU time in every cell, and a model of the allowed CPUs alone misses cpus: 2 by far more', () => {
    for (const name of folders) {
      const { cells } = summarizeCells(readResults(check(name), { keepDisturbed: true }));
      // The calibration is not what moved: CPU time per call within 5% of the folder's median in every cell.
      const perCall = cells.map((cell) => median(cell.runs.map((run) => run.cpu_total_ms / 16)));
      const middle = median(perCall);
      expect(perCall.every((value) => Math.abs(value / middle - 1) < 0.05)).toBe(true);
      // The CPUs were: the same calibration on the CPUs each cell was allowed, as if nothing else ran.
      const whole = (cell) =>
        predictCell(
          { workload: cell.workload, values: cell.values, modelCell: toModelCell(cell, cell.hostCpus) },
          cell.calibration,
        ).wall_ms;
      const atTwo = cells.filter((cell) => cell.values.cpus === 2);
      expect(Math.min(...atTwo.map((cell) => cell.stats.wall_ms.median / whole(cell)))).toBeGreaterThan(1.25);
    }
  });
});

describe('what the host allows a claim', () => {
  const cells = summaryOf(findings('pbkdf2-waves')).cells;
  const pool = (size) => cells.find((cell) => cell.values.uv_threadpool_size === size);

  test("pbkdf2 pool 1 → 4 at 2 CPUs: the model ratio is 0.50 (the post's 0.25 needs 4 CPUs); 4 → 8: 1.00", () => {
    // Within half a percent: the rest of the host took 0.2–0.6% of the pool-4 runs' CPUs (interference_pct).
    expect(modelRatio(pool(1), pool(4), 'wall_ms')).toBeCloseTo(0.5, 2);
    expect(modelRatio(pool(4), pool(8), 'wall_ms')).toBeCloseTo(1, 2);
    expect(modelRatio(pool(1), pool(4), 'requests_per_sec')).toBeNull();
    // The cost of a call cancels in the ratio: whatever the calibration, waves give one value.
    const [low, high] = modelRatioRange(pool(1), pool(4), 'wall_ms');
    expect(Number((high - low).toFixed(12))).toBe(0);
    expect(low).toBeCloseTo(modelRatio(pool(1), pool(4), 'wall_ms'), 12);
  });

  test('http: the ratio of two quotas depends a little on the calibration (the leftovers do not scale with the CPUs)', () => {
    const cells = summaryOf(fixture('recheck-http-quota')).cells;
    const at = (cpus) => cells.find((cell) => cell.values.cpus === cpus && cell.values.workers === 1);
    const [low, high] = modelRatioRange(at(1), at(0.5), 'requests_per_sec');
    expect(low).toBeLessThan(high);
    expect(modelRatio(at(1), at(0.5), 'requests_per_sec')).toBeGreaterThanOrEqual(low);
    expect(modelRatio(at(1), at(0.5), 'requests_per_sec')).toBeLessThanOrEqual(high);
  });
});

describe('calibration rules', () => {
  test('CPU time, never the predicted metric: doubling every wall_ms leaves the model as it was', () => {
    const results = readResults(findings('pbkdf2-waves'));
    const slower = { ...results, runs: results.runs.map((run) => ({ ...run, wall_ms: run.wall_ms * 2 })) };
    const rows = (folder) => summarizeCells(folder).rows.map((row) => row.model_wall_ms);
    expect(rows(slower)).toEqual(rows(results));
  });

  test('sample: only the cells with the most usable CPUs calibrate (pool-vs-cores: the 4 cells at 2 CPUs)', () => {
    const cell = summaryOf(fixture('pool-vs-cores')).cells.find((each) => each.workload === 'pbkdf2');
    expect(cell.calibration).toMatchObject({ kind: 'sample', cells: 4, runs: 12 });
  });

  test('a different node is another group: the closure loop costs Node 20 about 3× what it costs Node 24', () => {
    const cells = summaryOf(findings('sum-1e9-closure')).cells;
    const [twenty, twentyFour] = [20, 24].map(
      (node) => cells.find((cell) => cell.values.node === node).calibration.value,
    );
    expect(twenty / twentyFour).toBeGreaterThan(2);
    expect(new Set(cells.map((cell) => formatCalibrationKey({ ...cell, params: {} }))).size).toBe(2);
  });

  test('fit: idle memory, a base per process and a cost per thread, within 5% of every cell', () => {
    const { rows, cells } = summaryOf(findings('idle-memory'));
    expect(Object.keys(cells[0].calibration.coefficients)).toEqual(['process', 'thread']);
    for (const row of rows) expect(deviation(row, 'rss_mb')).toBeLessThan(0.05);
  });

  test('least squares through the origin: an exact system comes back exact; terms that move together give none', () => {
    expect(
      solveLeastSquares(
        [54, 63, 108, 135],
        [
          [1, 0],
          [1, 1],
          [2, 0],
          [2, 3],
        ],
      ).map((value) => Number(value.toFixed(9))),
    ).toEqual([54, 9]);
    expect(solveLeastSquares([2, 4], [[1], [2]])).toEqual([2]);
    expect(
      solveLeastSquares(
        [1, 2],
        [
          [1, 2],
          [2, 4],
        ],
      ),
    ).toBeNull();
  });

  test("lowest: the least parallel cell's medians, capped by its CPUs", () => {
    const run = (wall) => ({ status: 'ok', wall_ms: wall });
    const group = [
      {
        cell: 'wide',
        workload: 'script',
        values: { workload: 'script', workers: 4 },
        params: { file: 'f.js', tasks: 4 },
        runs: [run(100)],
      },
      {
        cell: 'one',
        workload: 'script',
        values: { workload: 'script', workers: 1 },
        params: { file: 'f.js', tasks: 4 },
        runs: [run(400), run(420)],
      },
    ];
    const predicted = predictCells(group, { hostCpus: 2 });
    expect(predicted.get('one').calibration).toMatchObject({
      kind: 'lowest',
      baseCell: 'one',
      medians: { wall_ms: 410 },
    });
    expect(predicted.get('wide').model).toEqual({ wall_ms: 205 });
  });

  test('no run.json parameters or a load without work: no model, and no error', () => {
    const group = [{ cell: 'x', workload: 'pbkdf2', values: { workload: 'pbkdf2' }, runs: [] }];
    expect(predictCells(group, { hostCpus: 2 }).get('x')).toEqual({
      calibration: null,
      model: {},
      modelRange: {},
      takenCpus: 0,
    });
    expect(
      calibrateGroup([
        { cell: 'y', workload: 'http', values: {}, params: { load: 'idle' }, modelCell: null, runs: [] },
      ]),
    ).toBeNull();
    expect(summaryOf(findings('template-idle')).rows.every((row) => row.model_requests_per_sec === null)).toBe(true);
  });
});

describe('model vs measured', () => {
  const flagsOf = (dir) => {
    const results = readResults(dir);
    const summary = summarizeCells(results);
    return buildModelTables({
      summary,
      axes: results.axes,
      workloads: [...new Set(summary.cells.map((cell) => cell.workload))],
    })[0].rows;
  };

  test('argon2 with one pool thread at 2 CPUs is short of the model (its lanes wait for each other); pbkdf2 waves are not', () => {
    const argon2 = flagsOf(findings('argon2-pool-32'));
    expect(argon2.find((row) => row.values.cpus === 2 && row.values.uv_threadpool_size === 1)).toMatchObject({
      metric: 'wall_ms',
      flag: 'short of the model',
    });
    // Pools 4 and 8 are the calibration's cells (2 calls or more at once on 2 CPUs). Pool 1, one call at a time,
    // may beat the model by a hair: its interval is so narrow that 1% counts.
    const waves = flagsOf(findings('pbkdf2-waves'));
    expect(waves.slice(1).map((row) => row.flag)).toEqual(['', '']);
    expect(Math.abs(waves[0].ratio - 1)).toBeLessThan(0.02);
  });

  test('http cores × threads: no published cell short of the model, throttled or not; the recheck fixture within 10%', () => {
    // The run of 2026-11-25: every cell 0.78–1.10 of the model, the throttled ones as wide as the rest, so none is
    // called short (an earlier run's throttled cells were, and their recheck, the fixture, was not).
    const published = flagsOf(findings('http-cores-threads')).filter((row) => row.metric === 'requests_per_sec');
    expect(published).toHaveLength(16);
    expect(published.filter((row) => row.flag === 'short of the model')).toEqual([]);
    expect(Math.max(...published.map((row) => Math.abs(row.ratio - 1)))).toBeLessThan(0.25);
    const recheck = flagsOf(fixture('recheck-http-quota')).filter((row) => row.metric === 'requests_per_sec');
    expect(Math.max(...recheck.map((row) => Math.abs(row.ratio - 1)))).toBeLessThan(0.1);
  });
});
