import { createRandom } from '../../../runner/stats/random.js';
import { chooseSetting, DEFAULT_BOUND_RULE, ONE_LOOK_RULE } from '../../../runner/verdicts/choose-setting.js';

// Small budgets with known truths: setting levels in log units above the best, a shared shift per round and each
// run's own noise, drawn from a seeded generator so every case is the same every time.
function makeBudget(gaps, { sd, roundSd = 0, seed = 1, costs } = {}) {
  const random = createRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const shifts = [];
  return {
    settings: gaps.map((_, i) => ({ id: `pool-${2 ** i}`, cost: costs?.[i] ?? 2 ** i + 1, values: [] })),
    run(round, ids, budget) {
      shifts[round] ??= roundSd * normal();
      for (const id of ids) {
        const i = budget.settings.findIndex((setting) => setting.id === id);
        budget.settings[i].values.push({ round, value: 1000 * Math.exp(gaps[i] + shifts[round] + sd * normal()) });
      }
    },
  };
}

/** The race: every round runs what the previous decision asked for; returns each round's decision. */
function race(budget, options) {
  const decisions = [];
  let next = budget.settings.map(({ id }) => id);
  for (let round = 1; next.length > 0; round++) {
    budget.run(round, next, budget);
    const decision = chooseSetting(budget.settings, options);
    decisions.push(decision);
    next = decision.nextRound;
  }
  return decisions;
}

const stateOf = (decision, id) => decision.settings.find((setting) => setting.id === id);
const RULE = { method: 'pooled', n0: 3, winsorize: false, futilityFrom: 3 };

test('a cheap setting within 1% of the best settles: recommended, bound under 5%, nothing more to run', () => {
  const budget = makeBudget([0.01, 0, 0.002, 0.03], { sd: 0.004, seed: 3 });
  const decisions = race(budget, { cap: 10, within: 0.05, rule: RULE });
  const last = decisions.at(-1);
  expect(last).toMatchObject({
    status: 'settled',
    recommended: 'pool-1',
    roundsNeeded: 0,
    nextRound: [],
    stop: 'settled',
  });
  expect(last.bound_pct).toBeGreaterThan(1);
  expect(last.bound_pct).toBeLessThanOrEqual(5);
  expect(decisions).toHaveLength(RULE.n0);
  expect(stateOf(last, 'pool-2').state).toBe('not needed');
  expect(stateOf(last, 'pool-2').reason).toBe('pool-1 costs less and is within 5%');
});

test('a cheap setting 8% worse is eliminated after enough rounds and no longer runs', () => {
  // Futility off (from round 10), so that the cheap setting runs until the bounds say it is out.
  const budget = makeBudget([0.08, 0, 0.01, 0.02], { sd: 0.018, roundSd: 0.03, seed: 12 });
  const decisions = race(budget, { cap: 10, within: 0.05, rule: { ...RULE, futilityFrom: 10 } });
  const at = decisions.findIndex((decision) => stateOf(decision, 'pool-1').state === 'eliminated');
  expect(at).toBeGreaterThan(RULE.n0 - 1);
  expect(stateOf(decisions[at - 1], 'pool-1').state).toBe('candidate');
  expect(stateOf(decisions[at], 'pool-1').reason).toMatch(/^confidently more than 5% worse than pool-(2|4|8)$/);
  expect(decisions.at(-1)).toMatchObject({ status: 'settled', recommended: 'pool-2', nextRound: [], stop: 'settled' });
  expect(budget.settings[0].values).toHaveLength(at + 1);
});

test('futility: a candidate whose bound, projected to the cap, stays above within stops running', () => {
  // 4% worse with 4% noise a run: never shown within 5% by 10 rounds, never confidently more than 5% worse either.
  const budget = makeBudget([0.04, 0, 0.001, 0.002], { sd: 0.04, seed: 5 });
  const decisions = race(budget, { cap: 10, within: 0.05, rule: RULE });
  const futile = decisions.find((decision) => stateOf(decision, 'pool-1').state === 'futile');
  expect(futile).toBeDefined();
  const state = stateOf(futile, 'pool-1');
  expect(state.reason).toBe('its bound, projected to 10 rounds, stays above 5%');
  expect(state.projected_pct).toBeGreaterThan(5);
  expect(state.projected_pct).toBeLessThan(state.bound_pct);
  expect(futile.nextRound).not.toContain('pool-1');
  expect(budget.settings[0].values.length).toBeLessThan(10);
});

test('nextRound holds each cheaper candidate and the setting that binds its bound', () => {
  const budget = makeBudget([0.02, 0, 0.004, 0.03], { sd: 0.02, seed: 8 });
  const decisions = race(budget, { cap: 10, within: 0.05, rule: RULE });
  const asked = decisions.filter((decision) => decision.rounds >= RULE.n0 && decision.nextRound.length > 0);
  expect(asked.length).toBeGreaterThan(0);
  for (const decision of asked) {
    const candidates = decision.settings.filter((setting) => setting.state === 'candidate');
    expect(candidates.length).toBeGreaterThan(0);
    const wanted = new Set(candidates.flatMap((setting) => [setting.id, setting.binding]));
    expect(new Set(decision.nextRound)).toEqual(wanted);
    // Cheaper than the recommendation when settled.
    if (decision.status === 'settled') {
      const cost = stateOf(decision, decision.recommended).cost;
      for (const setting of candidates) expect(setting.cost).toBeLessThan(cost);
    }
  }
});

test('replay: the decision on the runs of the first r rounds is the decision made at round r', () => {
  const budget = makeBudget([0.03, 0, 0.01, 0.05, 0.02, 0.04], { sd: 0.025, roundSd: 0.05, seed: 2 });
  const options = { cap: 10, within: 0.05, rule: { ...RULE, method: 'hybrid', winsorize: true } };
  const live = race(budget, options).map((decision) => JSON.parse(JSON.stringify(decision)));
  expect(live.length).toBeGreaterThan(RULE.n0);
  live.forEach((decision, r) => {
    const prefix = budget.settings.map((setting) => ({
      ...setting,
      values: setting.values.filter(({ round }) => round <= r + 1),
    }));
    expect(JSON.parse(JSON.stringify(chooseSetting(prefix, options)))).toEqual(decision);
  });
});

test('before n0 rounds every setting runs and nothing is dropped or settled, however clear the runs', () => {
  const budget = makeBudget([0.5, 0, 0.002, 0.3], { sd: 0.001, seed: 4 });
  budget.run(1, ['pool-1', 'pool-2', 'pool-4', 'pool-8'], budget);
  budget.run(2, ['pool-1', 'pool-2', 'pool-4', 'pool-8'], budget);
  const decision = chooseSetting(budget.settings, { cap: 10, within: 0.05, rule: { ...RULE, n0: 3 } });
  expect(decision).toMatchObject({ status: 'open', nextRound: ['pool-1', 'pool-2', 'pool-4', 'pool-8'], stop: null });
  expect(decision.settings.map(({ state }) => state).sort()).toEqual([
    'candidate',
    'candidate',
    'candidate',
    'recommended',
  ]);
  const third = chooseSetting(budget.settings, { cap: 10, within: 0.05, rule: { ...RULE, n0: 2 } });
  expect(stateOf(third, 'pool-1').state).toBe('eliminated');
});

test('a budget that cannot settle ends at the cap or by futility, no setting past the cap, with its bound', () => {
  const budget = makeBudget([0.03, 0, 0.02, 0.04], { sd: 0.15, roundSd: 0.08, seed: 6 });
  const decisions = race(budget, { cap: 6, within: 0.05, rule: RULE });
  const last = decisions.at(-1);
  expect(last.status).toBe('open');
  expect(['cap', 'futile']).toContain(last.stop);
  expect(last.roundsNeeded).toBeNull();
  expect(last.bound_pct).toBeGreaterThan(5);
  for (const setting of budget.settings) expect(setting.values.length).toBeLessThanOrEqual(6);
});

test('a rate (higher is better) is judged on its reciprocal', () => {
  const budget = makeBudget([0.01, 0, 0.002, 0.03], { sd: 0.004, seed: 3 });
  race(budget, { cap: 10, within: 0.05, rule: RULE });
  const rates = budget.settings.map((setting) => ({
    ...setting,
    values: setting.values.map(({ round, value }) => ({ round, value: 1e6 / value })),
  }));
  const time = chooseSetting(budget.settings, { cap: 10, within: 0.05, rule: RULE });
  const rate = chooseSetting(rates, { cap: 10, within: 0.05, rule: RULE, lowerIsBetter: false });
  expect(rate.recommended).toBe(time.recommended);
  expect(rate.U).toBeCloseTo(time.U, 12);
});

test('options are checked', () => {
  const { settings } = makeBudget([0, 0.01], { sd: 0.01 });
  expect(() => chooseSetting(settings, { cap: 2, rule: RULE })).toThrow(
    /cap must be a whole number of rounds, at least rule.n0 \(3\)/,
  );
  expect(() => chooseSetting(settings, { cap: 10, within: 0, rule: RULE })).toThrow(/within must be a positive share/);
  expect(() => chooseSetting(settings, { cap: 10, rule: { ...RULE, method: 'anova' } })).toThrow(
    /rule.method must be one of/,
  );
  expect(() => chooseSetting([{ id: 'a', values: [] }], { cap: 10, rule: RULE })).toThrow(/cost must be a number/);
});

test('DEFAULT_BOUND_RULE names a method, a start, a first look no earlier than round 3, its spending and futility', () => {
  expect(DEFAULT_BOUND_RULE).toEqual({
    method: expect.any(String),
    n0: expect.any(Number),
    from: expect.any(Number),
    spending: { shape: expect.any(String), kind: expect.any(String) },
    winsorize: expect.any(Boolean),
    stepDown: expect.any(Boolean),
    futilityFrom: expect.any(Number),
    futilityHope: expect.any(Number),
  });
  expect(DEFAULT_BOUND_RULE.from).toBeGreaterThanOrEqual(3);
  expect(ONE_LOOK_RULE).toEqual({ ...DEFAULT_BOUND_RULE, spending: null });
});

test('no budget settles, and nothing is eliminated, before round 3, however clear two rounds are', () => {
  const budget = makeBudget([0.5, 0, 0.002, 0.3], { sd: 0.001, seed: 4 });
  for (const round of [1, 2]) budget.run(round, ['pool-1', 'pool-2', 'pool-4', 'pool-8'], budget);
  for (const rule of [DEFAULT_BOUND_RULE, ONE_LOOK_RULE]) {
    const second = chooseSetting(budget.settings, { cap: 8, within: 0.05, rule });
    expect(second).toMatchObject({ status: 'open', bound_pct: null, stop: null });
    expect(second.settings.map(({ state }) => state).sort()).toEqual([
      'candidate',
      'candidate',
      'candidate',
      'recommended',
    ]);
    expect(second.nextRound).toEqual(['pool-1', 'pool-2', 'pool-4', 'pool-8']);
  }
  budget.run(3, ['pool-1', 'pool-2', 'pool-4', 'pool-8'], budget);
  const third = chooseSetting(budget.settings, { cap: 8, within: 0.05, rule: DEFAULT_BOUND_RULE });
  expect(third).toMatchObject({ status: 'settled', recommended: 'pool-2' });
  expect(stateOf(third, 'pool-1').state).toBe('eliminated');
});

test('α spent over the looks: a pair read at its first look gets a wider bound than one reading would, as much at the cap', () => {
  const budget = makeBudget([0.02, 0, 0.01, 0.03], { sd: 0.02, roundSd: 0.02, seed: 7 });
  const all = ['pool-1', 'pool-2', 'pool-4', 'pool-8'];
  for (let round = 1; round <= 3; round++) budget.run(round, all, budget);
  const spent = chooseSetting(budget.settings, { cap: 8, rule: DEFAULT_BOUND_RULE });
  const once = chooseSetting(budget.settings, { cap: 8, rule: ONE_LOOK_RULE });
  const pair = (decision) => decision.comparison.settings[0].pairs[0];
  expect(pair(spent).SE).toBe(pair(once).SE);
  expect(pair(spent).c).toBeGreaterThan(pair(once).c);
  // A pair at the cap (8 common rounds) spends the last look's share: still more than one reading's constant.
  for (let round = 4; round <= 8; round++) budget.run(round, all, budget);
  const capped = chooseSetting(budget.settings, { cap: 8, rule: DEFAULT_BOUND_RULE });
  const oneReading = chooseSetting(budget.settings, { cap: 8, rule: ONE_LOOK_RULE });
  expect(pair(capped).n).toBe(8);
  expect(pair(capped).c).toBeGreaterThan(pair(oneReading).c);
  expect(() => chooseSetting(budget.settings, { cap: 8, rule: { ...RULE, spending: { shape: 'linear' } } })).toThrow(
    /rule.spending must be/,
  );
});

test('a round only one setting ran (a re-run made later, alone) does not count toward n0', () => {
  const budget = makeBudget([0.5, 0, 0.002, 0.3], { sd: 0.001, seed: 4 });
  budget.run(1, ['pool-1', 'pool-2', 'pool-4', 'pool-8'], budget);
  budget.run(2, ['pool-1', 'pool-2', 'pool-4', 'pool-8'], budget);
  budget.run(3, ['pool-4'], budget);
  const decision = chooseSetting(budget.settings, { cap: 10, within: 0.05, rule: RULE });
  expect(decision.rounds).toBe(2);
  expect(decision.nextRound).toEqual(['pool-1', 'pool-2', 'pool-4', 'pool-8']);
});

test('step-down: once a setting is eliminated, the bounds spread α over the settings still in, never below two', () => {
  // Four settings, one of them twice as slow: eliminated at round 3, so the other three's bounds use the quantile of
  // three settings (1 − 0.05/2), not four (1 − 0.05/3); elimination itself keeps the quantile of four.
  const budget = makeBudget([0.7, 0, 0.01, 0.02], { sd: 0.02, seed: 5 });
  for (let round = 1; round <= 3; round++)
    budget.run(
      round,
      budget.settings.map(({ id }) => id),
      budget,
    );
  const plain = chooseSetting(budget.settings, { cap: 10, rule: RULE });
  const stepped = chooseSetting(budget.settings, { cap: 10, rule: { ...RULE, stepDown: true } });
  expect(stateOf(plain, 'pool-1').state).toBe('eliminated');
  expect(stateOf(stepped, 'pool-1').state).toBe('eliminated');
  expect([plain.comparison.family, stepped.comparison.family]).toEqual([4, 3]);
  // The same differences and standard errors; only the constant changes, by the ratio of the two t quantiles.
  const pair = (decision) => decision.comparison.settings[1].pairs.find(({ id }) => id === 'pool-4');
  const [before, after] = [pair(plain), pair(stepped)];
  expect(after.D).toBe(before.D);
  expect(after.SE).toBe(before.SE);
  expect(after.df).toBe(before.df);
  // t quantiles of df 6 (12 runs − 4 settings − 3 rounds + 1), from SciPy: t.ppf(1 - 0.05/3, 6), t.ppf(1 - 0.025, 6).
  expect(before.c).toBeCloseTo(2.74906, 4);
  expect(after.c).toBeCloseTo(2.44691, 4);
  for (const id of ['pool-2', 'pool-4', 'pool-8']) expect(stateOf(stepped, id).U).toBeLessThan(stateOf(plain, id).U);
  // Nothing eliminated: no step down.
  const even = makeBudget([0, 0.01, 0.02], { sd: 0.02, seed: 6 });
  for (let round = 1; round <= 3; round++)
    even.run(
      round,
      even.settings.map(({ id }) => id),
      even,
    );
  expect(chooseSetting(even.settings, { cap: 10, rule: { ...RULE, stepDown: true } }).comparison.family).toBe(3);
});

test('a re-run is a member of the round it ran in, beside the other re-runs of that round, never of the one it replaces', async () => {
  const { valuesOf } = await import('../../../runner/verdicts/advice.js');
  const { roundsOf } = await import('../../../runner/cells/cell.js');
  const run = (repetition, wall_ms, extra = {}) => ({ repetition, wall_ms, status: 'ok', ...extra });
  // Round 2 of `a` was disturbed and made again in round 4, beside the re-run of `b`'s round 3.
  const a = { runs: [run(1, 1000), run(3, 1010), run(4, 1005, { rerun_of: 2 })] };
  const b = { runs: [run(1, 1100), run(2, 1090), run(4, 1095, { rerun_of: 3 })] };
  expect(valuesOf(a, 'wall_ms').map(({ round }) => round)).toEqual([1, 3, 4]);
  expect(roundsOf(b, 'wall_ms')).toEqual([1, 2, 4]);
  const decision = chooseSetting(
    [
      { id: 'a', cost: 1, values: valuesOf(a, 'wall_ms') },
      { id: 'b', cost: 2, values: valuesOf(b, 'wall_ms') },
    ],
    { cap: 8, rule: ONE_LOOK_RULE },
  );
  // Rounds 1 and 4 hold both: two pairs, the re-runs paired with each other.
  expect(decision.comparison.settings[0].pairs[0].n).toBe(2);
});
