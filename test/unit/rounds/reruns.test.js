// Which disturbed runs get a run in their place, judged on the rows alone (so a resume continues exactly).
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { countMostReruns, planRerunRound } from '../../../runner/rounds/reruns.js';

function planOf({ maxReruns = 2, keepDisturbed = false } = {}) {
  const config = {
    file: 'x.yml',
    experiments: [
      {
        name: 'exp',
        repetitions: 3,
        timeout: 10,
        memory_bytes: 2 ** 30,
        disturbed_above: 25,
        max_reruns: maxReruns,
        env: {},
        include: [],
        exclude: [],
        matrix: { workload: ['pbkdf2'], cpus: [1, 2] },
        params: { pbkdf2: { tasks: 2 } },
      },
    ],
  };
  return planExperiments(config, { defaultNodeMajor: 24, seed: 3, keepDisturbed })[0];
}

const rowsOf = (cell, specs) =>
  specs.map(([repetition, disturbed, extra = {}]) => ({
    cell: cell.cell,
    repetition,
    status: 'ok',
    warmup: false,
    disturbed,
    ...extra,
  }));

test("one re-run per disturbed run, numbered after the cell's last repetition, naming the run it replaces", () => {
  const plan = planOf();
  const [one, two] = plan.cells;
  const rows = [
    ...rowsOf(one, [
      [1, false],
      [2, true],
      [3, false],
    ]),
    ...rowsOf(two, [
      [1, false],
      [2, false],
      [3, false],
    ]),
  ];
  const round = planRerunRound(plan, rows);
  expect(round.map((run) => [run.cell, run.repetition, run.rerunOf, run.warmup])).toEqual([[one.cell, 4, 2, false]]);
  expect(round[0].runKey).toBe(`${one.cell}.4`);
  expect(planRerunRound(plan, [...rows, ...rowsOf(one, [[4, false, { rerun_of: 2 }]])])).toEqual([]);
});

test('one a round, at most max_reruns a cell, counting the re-runs already made (a disturbed re-run included)', () => {
  const plan = planOf({ maxReruns: 2 });
  const [one] = plan.cells;
  // One a round, as a planned round holds each cell once: the earliest disturbed run first.
  const first = planRerunRound(
    plan,
    rowsOf(one, [
      [1, true],
      [2, true],
      [3, true],
    ]),
  );
  expect(first.map((run) => [run.repetition, run.rerunOf])).toEqual([[4, 1]]);
  const second = planRerunRound(
    plan,
    rowsOf(one, [
      [1, true],
      [2, true],
      [3, true],
      [4, false, { rerun_of: 1 }],
    ]),
  );
  expect(second.map((run) => [run.repetition, run.rerunOf])).toEqual([[5, 2]]);
  // The re-run of 1 was disturbed as well: the bound is reached, nothing more.
  const after = rowsOf(one, [
    [1, true],
    [2, true],
    [3, true],
    [4, true, { rerun_of: 1 }],
    [5, false, { rerun_of: 2 }],
  ]);
  expect(planRerunRound(plan, after)).toEqual([]);
  // Only one made so far (a resume after an abort): one more, for the oldest disturbed run still owed one.
  const resumed = rowsOf(one, [
    [1, true],
    [2, true],
    [3, true],
    [4, true, { rerun_of: 1 }],
  ]);
  expect(planRerunRound(plan, resumed).map((run) => [run.repetition, run.rerunOf])).toEqual([[5, 2]]);
});

test('failed and warm-up runs are not re-run; neither with max_reruns 0 nor with --keep-disturbed', () => {
  const plan = planOf();
  const [one] = plan.cells;
  const rows = [
    ...rowsOf(one, [
      [1, true, { status: 'failed' }],
      [2, false],
    ]),
    { cell: one.cell, repetition: 1, status: 'ok', warmup: true, disturbed: true },
  ];
  expect(planRerunRound(plan, rows)).toEqual([]);
  const disturbed = rowsOf(one, [
    [1, true],
    [2, false],
    [3, false],
  ]);
  expect(planRerunRound(plan, disturbed)).toHaveLength(1);
  expect(planRerunRound(planOf({ maxReruns: 0 }), disturbed)).toEqual([]);
  expect(planRerunRound(planOf({ keepDisturbed: true }), disturbed)).toEqual([]);
});

test("--plan's bound: max_reruns × cells, none with --keep-disturbed", () => {
  expect(countMostReruns(planOf({ maxReruns: 2 }))).toBe(4);
  expect(countMostReruns(planOf({ maxReruns: 2, keepDisturbed: true }))).toBe(0);
});
