// The plan as a person reads it before anything runs: the most adaptive rounds or a race may add (which cells, how
// many), the estimate and which source it used, each claim's metric and direction.
import { parseYaml, validateConfig } from '../../../runner/config/load-config.js';
import { outlinePlan } from '../../../runner/plan/outline.js';
import { formatCalibrationKey } from '../../../runner/model/calibrate.js';
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { findPlanWarnings, formatWarning } from '../../../runner/plan/plan-warnings.js';

const HOST = { cpus: 2, cpuIds: [0, 1] };
const BENCH = { overhead_ms: 200, startup_ms: 500, written: '2026-11-23' };

function planOf(text) {
  const { raw, locate } = parseYaml(text, 'experiments.yml');
  const config = validateConfig(raw, { file: 'experiments.yml', locate, host: HOST });
  const [plan] = planExperiments(config, { defaultNodeMajor: 24, seed: 1 });
  return { plan, config };
}

const outline = (plan, context = {}) =>
  outlinePlan(plan, { pending: plan.runs, bench: BENCH, sources: [], lanes: 1, ...context });

const POOL = `experiments:
  pool:
    repetitions: 3
    matrix: {workload: [pbkdf2], cpus: [1, 2], uv_threadpool_size: [1, 4, 8]}
`;

test('a table of cells, the varying axes as columns, the shared ones once; runs per cell', () => {
  const { plan } = planOf(POOL);
  const { axes, shared, table, planned } = outline(plan);
  expect([axes, shared, planned]).toEqual([['cpus', 'uv_threadpool_size'], { workload: 'pbkdf2' }, 18]);
  expect(table.map((row) => [row.values.cpus, row.values.uv_threadpool_size, row.runs])).toEqual([
    [1, 1, 3],
    [1, 4, 3],
    [1, 8, 3],
    [2, 1, 3],
    [2, 4, 3],
    [2, 8, 3],
  ]);
});

test('adaptive with claims: max_repetitions − repetitions for each cell a claim compares, none for the others', () => {
  const { plan } = planOf(`${POOL}    claims:
      - {says: a, compare: {uv_threadpool_size: [1, 4]}, where: {cpus: 2}, expect: {below: 0.7}}
    adaptive: {max_repetitions: 10, claims: true}
    search: grid
`);
  const { table, up_to_more: more, up_to_more_why: why } = outline(plan);
  expect(table.filter((row) => row.up_to_more > 0).map((row) => row.values)).toEqual([
    { cpus: 2, uv_threadpool_size: 1 },
    { cpus: 2, uv_threadpool_size: 4 },
  ]);
  expect([more, why]).toEqual([14, '7 more for each of 2 cells: the cells of a claim, until it is decided']);
});

test('adaptive with target_ci_pct: every cell; a race: every cell of a budget with a knob; neither: nothing', () => {
  expect(outline(planOf(`${POOL}    adaptive: {max_repetitions: 5, target_ci_pct: 5}\n`).plan).up_to_more).toBe(12);
  expect(
    outline(planOf(`${POOL}    adaptive: {max_repetitions: 6}\n    search: race\n    recommend: {}\n`).plan).up_to_more,
  ).toBe(18);
  // cpus is the budget and nothing else varies: no setting to choose, no race.
  const noKnob = planOf(
    `experiments:\n  q:\n    matrix: {workload: [pbkdf2], cpus: [1, 2]}\n    adaptive: {max_repetitions: 6}\n    search: race\n    recommend: {}\n`,
  ).plan;
  expect(outline(noKnob).up_to_more).toBe(0);
  expect(outline(planOf(`${POOL}    search: grid\n`).plan).up_to_more).toBe(0);
  // The default search is a race with the default cap (8): 5 more for each of the POOL's 6 cells (3 start rounds).
  expect(outline(planOf(POOL).plan).up_to_more).toBe(30);
});

test('the estimate: measured cells from an earlier folder, the benchmarked overhead for the rest (a lower bound), said which', () => {
  const { plan } = planOf(POOL);
  const [first, second] = plan.cells;
  const earlier = {
    dir: 'results/pool-20261123T000000Z',
    cells: { [first.cell]: { ms: 4000, n: 3 }, [second.cell]: { ms: 2000, n: 3 } },
    groups: {},
  };
  const { estimate, table } = outline(plan, { sources: [earlier] });
  // 3 runs × 4 s + 3 × 2 s measured, 12 runs × 200 ms overhead, 500 ms start-up.
  expect(estimate).toMatchObject({
    planned_ms: 12000 + 6000 + 12 * 200 + 500,
    lower_bound: true,
    measured_cells: 2,
    model_cells: 0,
    cells: 6,
    sources: [{ folder: earlier.dir, measured_cells: 2, model_cells: 0, shipped: false, host: null }],
  });
  expect(table.find((row) => row.cell === first.cell)).toMatchObject({
    run_ms: 4000,
    run_ms_from: 'measured',
    run_ms_source: earlier.dir,
    run_ms_lower_bound: false,
  });
  expect(table.find((row) => row.cell === plan.cells[2].cell)).toMatchObject({
    run_ms: 200,
    run_ms_from: 'benchmark',
    run_ms_source: null,
    run_ms_lower_bound: true,
  });
  // Every cell measured: an estimate, not a bound; two slots halve it.
  const all = {
    dir: 'x',
    cells: Object.fromEntries(plan.cells.map(({ cell }) => [cell, { ms: 1000, n: 3 }])),
    groups: {},
  };
  expect(outline(plan, { sources: [all], lanes: 2 }).estimate).toMatchObject({
    planned_ms: 9000 + 500,
    lower_bound: false,
  });
});

test('the estimate: cells an earlier folder did not run, from the capacity model calibrated on the same work there', () => {
  const { plan } = planOf(POOL);
  // 16 pbkdf2 calls of 400 ms CPU each (the default params), and 300 ms a run around the workload.
  const key = formatCalibrationKey(plan.cells[0]);
  const earlier = {
    dir: 'results/other-20261123T000000Z',
    cells: {},
    groups: { [key]: { workload: 'pbkdf2', calibration: { kind: 'sample', value: 400 }, overhead_ms: 300, n: 6 } },
  };
  const { estimate, table } = outline(plan, { sources: [earlier], hostCpus: 2 });
  const runMs = (cpus, pool) =>
    table.find((row) => row.values.cpus === cpus && row.values.uv_threadpool_size === pool).run_ms;
  // 1 CPU: 16 × 400 ms whatever the pool; 2 CPUs: a pool of 1 runs one call at a time, a pool of 4 two at once.
  expect([runMs(1, 1), runMs(1, 4), runMs(2, 1), runMs(2, 4)]).toEqual([6700, 6700, 6700, 3500]);
  expect(table.every((row) => row.run_ms_from === 'model' && row.run_ms_source === earlier.dir)).toBe(true);
  expect(estimate).toMatchObject({
    model_cells: 6,
    lower_bound: false,
    sources: [{ folder: earlier.dir, measured_cells: 0, model_cells: 6, shipped: false }],
  });
  // The same cell measured wins over the model; an earlier source wins over a later one.
  const measured = {
    dir: 'results/pool-20261124T000000Z',
    cells: { [plan.cells[0].cell]: { ms: 9000, n: 3 } },
    groups: {},
  };
  expect(outline(plan, { sources: [measured, earlier], hostCpus: 2 }).table[0]).toMatchObject({
    run_ms: 9000,
    run_ms_from: 'measured',
  });
  // Unknown CPUs (engines elsewhere) and no quota: the model cannot say.
  const { plan: unpinned } = planOf(
    `experiments:\n  u:\n    matrix: {workload: [pbkdf2], uv_threadpool_size: [1, 4]}\n`,
  );
  const unpinnedKey = { [formatCalibrationKey(unpinned.cells[0])]: earlier.groups[key] };
  expect(
    outline(unpinned, { sources: [{ ...earlier, groups: unpinnedKey }], hostCpus: null }).table[0].run_ms_from,
  ).toBe('benchmark');
});

test('http runs are known to take their warm-up and measured seconds; no figures at all: not estimated', () => {
  const { plan } = planOf(
    `experiments:\n  web:\n    repetitions: 2\n    matrix: {workload: [http], workers: [0, 2]}\n    params:\n      http: {duration: 5, warmup: 1}\n`,
  );
  expect(outline(plan).estimate).toMatchObject({
    planned_ms: 4 * 6200 + 500,
    lower_bound: false,
    known_workloads: ['http'],
  });
  expect(outline(plan, { bench: null }).estimate.planned_ms).toBeNull();
});

test('each claim with its resolved metric and direction; below on a rate with no metric: is warned as "means worse"', () => {
  const { plan, config } = planOf(`experiments:
  web:
    matrix: {workload: [http], workers: [0, 2]}
    claims:
      - {says: workers help, compare: {workers: [0, 2]}, expect: {below: 0.9}}
      - {says: named, compare: {workers: [0, 2]}, metric: requests_per_sec, expect: {below: 0.9}}
      - {says: latency, compare: {workers: [0, 2]}, metric: latency_p99_ms, expect: {below: 0.9}}
`);
  const { claims } = outline(plan);
  expect(claims.map((claim) => claim.metrics.map(({ metric, better, meaning }) => [metric, better, meaning]))).toEqual([
    [['requests_per_sec', 'higher', 'worse']],
    [['requests_per_sec', 'higher', 'worse']],
    [['latency_p99_ms', 'lower', 'better']],
  ]);
  // This config's http cells have no CPU budget, so their loader shares the CPUs: warned, but not this test's subject.
  const unshared = (warning) => !warning.includes('cannot be measured cleanly on this');
  expect(findPlanWarnings(plan, config).map(formatWarning).filter(unshared)).toEqual([
    expect.stringMatching(
      /^experiments\.yml:5:66: experiments\.web\.claims\[0\]\.expect: warning: below 0\.9 means worse here: with no `metric:` the claim is judged on requests_per_sec \(http's first primary metric\), where higher is better, so B \/ A below 0\.9 says workers=2 is worse than workers=0\n {2}write `metric: requests_per_sec` in the claim to say you mean it, `metric: latency_p99_ms` to judge p99 latency \(lower is better\), or, if you meant workers=2 is better, `above: 1\.11`$/,
    ),
  ]);
});

test("the advice's metric, its direction and what it is given per", () => {
  const { plan } = planOf(`${POOL}    recommend: {within: 10%}\n`);
  expect(outline(plan).advice).toEqual({
    within: 0.1,
    per: ['cpus'],
    prefer: 'fewest',
    metrics: [{ workload: 'pbkdf2', metric: 'wall_ms', better: 'lower' }],
  });
});
