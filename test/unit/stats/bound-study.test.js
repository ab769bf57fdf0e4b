import { createRandom } from '../../../runner/stats/random.js';
import { chooseSetting } from '../../../runner/verdicts/choose-setting.js';
import { fitRoundNoise, readTruths } from '../../../scripts/lib/bound-noise.js';
import { drawTrial, runGrid, runRace, simulateBounds } from '../../../scripts/lib/bound-simulation.js';
import { chooseBoundRule, summarizeBounds } from '../../../scripts/lib/bound-verdict.js';

const normalFrom = (random) => () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

// A folder of two budgets × pools 1, 2, 4, 8 over `rounds` rounds: known levels, a shift per round shared by every
// cell, and each run's own noise.
function makeFolder({ rounds, ownSd, roundSd, seed }) {
  const normal = normalFrom(createRandom(seed));
  const shifts = Array.from({ length: rounds }, () => roundSd * normal());
  const runs = [];
  for (const [cpus, levels] of [
    [1, [1000, 1010, 1030, 1060]],
    [2, [2000, 1000, 1005, 1040]],
  ]) {
    [1, 2, 4, 8].forEach((pool, i) => {
      for (let round = 1; round <= rounds; round++) {
        runs.push({
          cell: `c${cpus}-${pool}`,
          workload: 'pbkdf2',
          cpus,
          uv_threadpool_size: pool,
          status: 'ok',
          warmup: false,
          disturbed: false,
          repetition: round,
          wall_ms: levels[i] * Math.exp(shifts[round - 1] + ownSd * normal()),
        });
      }
    });
  }
  return { dir: 'synthetic', runs };
}

test('fitRoundNoise finds the own noise and the round shift the folder was made with', () => {
  const profile = fitRoundNoise('synthetic', [makeFolder({ rounds: 40, ownSd: 0.03, roundSd: 0.08, seed: 4 })]);
  expect(profile.runs).toBe(320);
  expect(profile.sd).toBeGreaterThan(0.026);
  expect(profile.sd).toBeLessThan(0.034);
  expect(profile.roundSd).toBeGreaterThan(0.06);
  expect(profile.roundSd).toBeLessThan(0.1);
  expect(profile.residuals).toHaveLength(320);
});

test('readTruths: per budget, each pool’s gap to the best median, cheapest first, disturbed runs left out', () => {
  const folder = makeFolder({ rounds: 5, ownSd: 0, roundSd: 0, seed: 1 });
  folder.runs.push({ ...folder.runs[0], wall_ms: 1, disturbed: true });
  const truths = readTruths(folder);
  expect(truths.map(({ name }) => name)).toEqual(['pbkdf2 cpus=1', 'pbkdf2 cpus=2']);
  const [, two] = truths;
  expect(two.settings.map(({ id, cost }) => [id, cost])).toEqual([
    ['pool 1', 2],
    ['pool 2', 3],
    ['pool 4', 5],
    ['pool 8', 9],
  ]);
  expect(two.settings.map(({ gap }) => Math.exp(gap))).toEqual([
    expect.closeTo(2, 9),
    expect.closeTo(1, 9),
    expect.closeTo(1.005, 9),
    expect.closeTo(1.04, 9),
  ]);
});

const profile = {
  name: 'test',
  residuals: [-0.02, -0.01, 0, 0.01, 0.02],
  roundSd: 0.01,
  phi: 0.5,
  spikeRate: 0,
  spikes: [],
  cheapScale: null,
};
const truth = {
  name: 'four',
  group: 'default',
  settings: [0.016, 0, 0.005, 0.032].map((gap, i) => ({ id: `pool ${2 ** i}`, cost: 2 ** i + 1, gap })),
};

test('drawTrial is seeded; the adversarial profile scales the cheapest setting’s own noise three times the others’', () => {
  expect(drawTrial(profile, truth, 10, createRandom(2))).toEqual(drawTrial(profile, truth, 10, createRandom(2)));
  const still = { ...profile, roundSd: 0 };
  const spread = (p, i) => {
    const draw = drawTrial(p, truth, 400, createRandom(3));
    const own = Array.from({ length: 400 }, (_, r) => draw[r * 4 + i] - truth.settings[i].gap);
    return Math.sqrt(own.reduce((sum, v) => sum + v * v, 0) / own.length);
  };
  const adversarial = { ...still, cheapScale: [1.5, 0.5] };
  expect(spread(adversarial, 0) / spread(adversarial, 1)).toBeCloseTo(3, 0);
  expect(spread(still, 0) / spread(still, 1)).toBeCloseTo(1, 0);
});

test('runRace plays the production decision round by round and no setting passes the cap', () => {
  const rule = { method: 'pooled', n0: 3, winsorize: false, futilityFrom: 3 };
  const draw = drawTrial(profile, truth, 20, createRandom(5));
  const { runs, decision } = runRace(draw, truth, rule, { cap: 10 });
  expect(runs).toBeGreaterThanOrEqual(12);
  expect(runs).toBeLessThanOrEqual(40);
  expect(decision.nextRound).toEqual([]);
  for (const setting of decision.settings) expect(setting.n).toBeLessThanOrEqual(10);
  // The grid's answer is chooseSetting's on the first n rounds of the same draw.
  const grid = runGrid(draw, truth, 4, rule);
  const settings = truth.settings.map(({ id, cost }, i) => ({
    id,
    cost,
    values: [0, 1, 2, 3].map((r) => ({ round: r + 1, value: 1000 * Math.exp(draw[r * 4 + i]) })),
  }));
  expect(grid.decision.recommended).toBe(
    chooseSetting(settings, { cap: 4, rule: { ...rule, n0: 2, futilityFrom: 2 } }).recommended,
  );
});

test('the whole file adds up each trial’s budgets; the choice keeps the bound first, then the file in ≤ 60 runs', () => {
  const rules = [
    { key: 'fast but wrong', method: 'pooled', n0: 3, winsorize: false, futilityFrom: 3 },
    { key: 'honest', method: 'paired', n0: 3, winsorize: false, futilityFrom: 5 },
  ];
  const tally = (key, failed, runsEach) => ({
    key,
    kind: 'race',
    trials: 2,
    failed,
    good: 2,
    settled: 2,
    runs: 2 * runsEach,
    perTrial: {
      runs: Int16Array.from([runsEach, runsEach]),
      settled: Uint8Array.from([1, 1]),
      good: Uint8Array.from([1, 1]),
      bound: Float64Array.from([0.01, 0.02]),
    },
  });
  const truths = ['a', 'b'].map((name) => ({ name, group: 'default' }));
  const results = truths.map(({ name }) => ({
    profile: 'quiet',
    truth: name,
    gridRuns: 40,
    tallies: [tally('fast but wrong', 1, 20), tally('honest', 0, 35)],
  }));
  const summary = summarizeBounds(results, truths);
  const file = summary.files.find(({ key }) => key === 'honest');
  expect(file).toMatchObject({ runsMean: 70, allSettled: 1, settledWithin: 0, allGood: 1 });
  expect(summary.files.find(({ key }) => key === 'fast but wrong').settledWithin).toBe(1);
  const choice = chooseBoundRule(summary, rules);
  expect(choice.chosen.key).toBe('honest');
  expect(choice.anyEligible).toBe(true);
  expect(choice.standing.find(({ key }) => key === 'fast but wrong')).toMatchObject({
    worstFail: 0.5,
    eligible: false,
  });
});

test('simulateBounds: every rule and grid on the same draws, seeded', () => {
  const rules = [{ key: 'pooled, n0 = 3', method: 'pooled', n0: 3, winsorize: false, futilityFrom: 3 }];
  const run = () =>
    simulateBounds(profile, truth, {
      trials: 20,
      random: createRandom(9),
      rules,
      gridMethods: [{ method: 'pooled', winsorize: false }],
    });
  const first = run();
  expect(first.tallies.map(({ key }) => key)).toEqual(['pooled, n0 = 3', 'grid 4 (pooled)', 'grid 10 (pooled)']);
  expect(first.tallies[2].runs).toBe(20 * 40);
  expect(run()).toEqual(first);
});
