// `round_order`: the `abba` order keeps a budget's cells adjacent, mirrors every other round, comes from the seed
// alone (replayable, and the same for any subset of the cells a later round runs); `shuffled` stays as it was.
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { groupByBudget, orderMirrored, orderRoundCells } from '../../../runner/plan/run-order.js';

const PBKDF2 = { tasks: 4, iterations: 1000, keylen: 64, digest: 'sha512', sync: false };

function planOf(experiment, seed = 7) {
  const config = {
    file: '/tmp/experiments.yml',
    locate: () => ({}),
    experiments: [
      {
        name: 'exp',
        repetitions: 4,
        timeout: 60,
        memory: '512m',
        memory_bytes: 512 * 2 ** 20,
        env: {},
        include: [],
        exclude: [],
        params: { pbkdf2: PBKDF2, argon2: { tasks: 2 } },
        matrix: { workload: ['pbkdf2', 'argon2'], cpus: [1, 2], uv_threadpool_size: [1, 2, 4, 8] },
        ...experiment,
      },
    ],
  };
  return planExperiments(config, { defaultNodeMajor: 24, seed })[0];
}

const budgetOf = (run) => `${run.workload} cpus=${run.values.cpus}`;
const roundsOf = (plan) => {
  const measured = plan.runs.filter((run) => !run.warmup);
  return [...new Set(measured.map((run) => run.repetition))].map((round) =>
    measured.filter((run) => run.repetition === round),
  );
};

test('abba: every round holds every cell once, each budget back to back, and round 2k mirrors round 2k − 1', () => {
  const plan = planOf({ round_order: 'abba' });
  const rounds = roundsOf(plan);
  expect(rounds).toHaveLength(4);
  for (const round of rounds) {
    expect(new Set(round.map((run) => run.cell)).size).toBe(16);
    // Adjacent: the budget changes exactly (budgets − 1) times along the round.
    const changes = round.filter((run, index) => index > 0 && budgetOf(run) !== budgetOf(round[index - 1])).length;
    expect(changes).toBe(3);
  }
  const cells = (round) => round.map((run) => run.cell);
  expect(cells(rounds[1])).toEqual(cells(rounds[0]).reverse());
  expect(cells(rounds[3])).toEqual(cells(rounds[2]).reverse());
  // A new base order for the second pair (16! orders: the same one by chance is out of the question).
  expect(cells(rounds[2])).not.toEqual(cells(rounds[0]));
});

test('abba is seeded and replayable: the same seed gives the same order, another seed another', () => {
  const order = (seed) => planOf({ round_order: 'abba' }, seed).runs.map((run) => run.runKey);
  expect(order(42)).toEqual(order(42));
  expect(order(42)).not.toEqual(order(43));
});

test('abba: warm-up rounds draw from a stream of their own, so adding them leaves the measured order as it was', () => {
  const measured = (plan) => plan.runs.filter((run) => !run.warmup).map((run) => run.runKey);
  expect(measured(planOf({ round_order: 'abba', warmup: 2 }))).toEqual(measured(planOf({ round_order: 'abba' })));
  const warm = planOf({ round_order: 'abba', warmup: 2 }).runs.filter((run) => run.warmup);
  expect(warm).toHaveLength(32);
  expect(warm.slice(16).map((run) => run.cell)).toEqual(
    warm
      .slice(0, 16)
      .map((run) => run.cell)
      .reverse(),
  );
});

test('a later round keeps the abba order of its number over the cells it runs', () => {
  const plan = planOf({ round_order: 'abba' });
  const some = plan.cells.filter((cell) => cell.values.uv_threadpool_size !== 2);
  const full = orderMirrored(plan.cells, 5, { seed: 7, experiment: 'exp', budgetAxes: ['cpus'] });
  expect(orderRoundCells(plan, some, 5).map((cell) => cell.cell)).toEqual(
    full.filter((cell) => some.includes(cell)).map((cell) => cell.cell),
  );
  expect(orderRoundCells(plan, some, 6).map((cell) => cell.cell)).toEqual(
    full
      .filter((cell) => some.includes(cell))
      .map((cell) => cell.cell)
      .reverse(),
  );
});

test('the budget follows recommend.per; shuffled (the default) is the order it always was', () => {
  const plan = planOf({ round_order: 'abba', recommend: { per: ['cpus'] } });
  const [round] = roundsOf(plan);
  const changes = round.filter((run, index) => index > 0 && budgetOf(run) !== budgetOf(round[index - 1])).length;
  expect(changes).toBe(3);
  expect(groupByBudget(plan.cells, ['cpus']).map((group) => group.length)).toEqual([4, 4, 4, 4]);
  expect(planOf({ round_order: 'shuffled' }).runs.map((run) => run.runKey)).toEqual(
    planOf({}).runs.map((run) => run.runKey),
  );
});
