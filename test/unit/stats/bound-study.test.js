import { createRandom } from '../../../runner/stats/random.js';
import { fitRoundNoise, readReferenceTruths } from '../../../scripts/lib/bound-noise.js';
import { fixedSampleRuns, oracleRuns, waldRounds } from '../../../scripts/lib/bound-limit.js';
import { createTrialNoise, playTrial } from '../../../scripts/lib/bound-race.js';
import { simulateCase } from '../../../scripts/lib/bound-simulation.js';
import { makeBudget } from '../../../scripts/lib/bound-study.js';
import { chooseBoundRule, summarizeBounds } from '../../../scripts/lib/bound-verdict.js';

const normalFrom = (random) => () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

// A folder of two budgets × pools 1, 2, 4, 8 over `rounds` rounds: known levels, a shift per round shared by every
// cell, each run's own noise, a shift of the whole folder, and runs one second apart in a shuffled order.
function makeFolder({ rounds, ownSd, roundSd, seed, folderShift = 0, adjacent = 0 }) {
  const random = createRandom(seed);
  const normal = normalFrom(random);
  const shifts = Array.from({ length: rounds }, () => roundSd * normal());
  const theta = adjacent > 0 ? (1 - Math.sqrt(1 - 4 * adjacent * adjacent)) / (2 * adjacent) : 0;
  const runs = [];
  let clock = Date.parse('2026-11-01T00:00:00Z');
  for (let round = 1; round <= rounds; round++) {
    const cells = [];
    for (const [cpus, levels] of [
      [1, [1000, 1010, 1030, 1060]],
      [2, [2000, 1000, 1005, 1040]],
    ]) {
      [1, 2, 4, 8].forEach((pool, i) => cells.push({ cpus, pool, level: levels[i] }));
    }
    cells.sort(() => random() - 0.5);
    let previous = normal();
    for (const { cpus, pool, level } of cells) {
      const fresh = normal();
      const own = (fresh + theta * previous) / Math.sqrt(1 + theta * theta);
      previous = fresh;
      clock += 1000;
      runs.push({
        cell: `c${cpus}-${pool}`,
        workload: 'pbkdf2',
        cpus,
        uv_threadpool_size: pool,
        status: 'ok',
        warmup: false,
        disturbed: false,
        repetition: round,
        started_at: new Date(clock).toISOString(),
        wall_ms: level * Math.exp(folderShift + shifts[round - 1] + ownSd * own),
      });
    }
  }
  return { dir: 'synthetic', runs };
}

test('fitRoundNoise finds the own noise, the round shift and the correlation of adjacent runs', () => {
  const profile = fitRoundNoise('synthetic', [
    makeFolder({ rounds: 60, ownSd: 0.03, roundSd: 0.08, seed: 4, adjacent: 0.3 }),
  ]);
  expect(profile.runs).toBe(480);
  expect(profile.sd).toBeGreaterThan(0.026);
  expect(profile.sd).toBeLessThan(0.034);
  expect(profile.roundSd).toBeGreaterThan(0.06);
  expect(profile.roundSd).toBeLessThan(0.1);
  expect(profile.adjacent).toBeGreaterThan(0.2);
  expect(profile.adjacent).toBeLessThan(0.4);
  const still = fitRoundNoise('still', [makeFolder({ rounds: 60, ownSd: 0.03, roundSd: 0, seed: 5 })]);
  expect(still.adjacent).toBeLessThan(0.1);
});

test('readReferenceTruths pools folders with shifts of their own: each pool’s gap to its budget’s best', () => {
  const folders = [
    makeFolder({ rounds: 3, ownSd: 0, roundSd: 0.05, seed: 1 }),
    makeFolder({ rounds: 4, ownSd: 0, roundSd: 0.05, seed: 2, folderShift: 0.2 }),
  ];
  folders[1].runs.push({ ...folders[1].runs[0], wall_ms: 1, disturbed: true });
  const truths = readReferenceTruths(folders);
  expect(truths.map(({ name }) => name)).toEqual(['pbkdf2 cpus=1', 'pbkdf2 cpus=2']);
  const [, two] = truths;
  expect(two).toMatchObject({ workload: 'pbkdf2', cpus: 2 });
  expect(two.settings.map(({ id, pool, cost }) => [id, pool, cost])).toEqual([
    ['pool 1', 1, 2],
    ['pool 2', 2, 3],
    ['pool 4', 4, 5],
    ['pool 8', 8, 9],
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
  residuals: [-0.03, -0.01, 0, 0.01, 0.03],
  sd: 0.02,
  roundSd: 0.01,
  phi: 0.5,
  adjacent: 0.2,
  cheapScale: null,
};
const budget = makeBudget;
const oneBudget = { name: 'one', group: 'worst', budgets: [budget('one', [5.5, 0, 30, 30])] };
const rule = {
  key: 'pooled, exact Pocock',
  method: 'pooled',
  n0: 2,
  from: 3,
  spending: { shape: 'pocock', kind: 'exact' },
  winsorize: false,
  stepDown: false,
  futilityFrom: 3,
  futilityHope: 1,
};

test('a trial’s noise is the same for every rule at the same cell, round and place, and seeded', () => {
  const [a, b, c] = [createTrialNoise(profile, 7), createTrialNoise(profile, 7), createTrialNoise(profile, 8)];
  expect([a.shift(3), a.run(2, 3, null), a.run(2, 3, 1)]).toEqual([b.shift(3), b.run(2, 3, null), b.run(2, 3, 1)]);
  expect(a.run(2, 3, 1)).not.toBe(a.run(2, 3, null));
  expect([c.shift(3), c.run(2, 3, null)]).not.toEqual([a.shift(3), a.run(2, 3, null)]);
});

test('playTrial races a case through the runner’s own scheduler: start rounds, then only what is open, to the cap', async () => {
  const result = await playTrial(oneBudget, rule, profile, { trial: 1, seed: 3, cap: 8 });
  const [answer] = result.budgets;
  expect(result.runs).toBe(answer.runs);
  // Every setting runs the two start rounds and the first look's round; no setting passes the cap.
  expect(result.runs).toBeGreaterThanOrEqual(12);
  expect(result.runs).toBeLessThanOrEqual(32);
  expect([1, 2, 4, 8]).toContain(answer.recommended);
  expect(typeof answer.settled).toBe('boolean');
  expect(await playTrial(oneBudget, rule, profile, { trial: 1, seed: 3, cap: 8 })).toEqual(result);
});

test('simulateCase tallies failures, good picks, settled answers and runs per budget, the same twice', async () => {
  const run = () => simulateCase({ profile, testCase: oneBudget, rule, trials: 6, seed: 9 });
  const first = await run();
  expect(first).toMatchObject({ profile: 'test', testCase: 'one', rule: rule.key, trials: 6 });
  const [tally] = first.budgets;
  expect(tally.failed + tally.good).toBeLessThanOrEqual(6 + tally.failed);
  expect(tally.runs).toBe(first.runs.reduce((sum, r) => sum + r, 0));
  expect(await run()).toEqual(first);
});

test('Wald’s bound: ln(1/α)/KL at power 1, nothing at power 0, the oracle at least one run of every setting', () => {
  expect(waldRounds(0.05, 1, 0.5)).toBeCloseTo(Math.log(20) / 0.5, 12);
  expect(waldRounds(0.05, 0, 0.5)).toBe(0);
  expect(waldRounds(0.05, 0.8, 0.5)).toBeLessThan(waldRounds(0.05, 0.95, 0.5));
  const two = [{ gap: 0 }, { gap: Math.log(1.2) }];
  const delta = Math.log(1.05);
  const information = (delta + Math.log(1.2)) ** 2 / (2 * 2 * 0.04 ** 2);
  const n = Math.max(1, waldRounds(0.05, 0.9, information));
  expect(oracleRuns(two, { sd: 0.04, within: 0.05, alpha: 0.05, power: 0.9 })).toBeCloseTo(2 * n, 10);
  expect(oracleRuns(two, { sd: 0.04, within: 0.05, alpha: 0.05, power: 0.1 })).toBe(2);
  // With σ unknown and one reading, the same share settled costs more.
  const budget4 = [0, 0.03, 0.06, 0.1].map((gap) => ({ gap }));
  const options = { sd: 0.045, within: 0.05, alpha: 0.05, power: 0.8 };
  expect(fixedSampleRuns(budget4, options)).toBeGreaterThan(oracleRuns(budget4, options));
  expect(fixedSampleRuns(budget4, { ...options, power: 0.95 })).toBeGreaterThan(fixedSampleRuns(budget4, options));
});

test('the choice keeps the bound first, then takes the fewest runs against the oracle on the default file', () => {
  const fileCase = { name: 'default file', group: 'file', budgets: [budget('b', [0, 3])] };
  const cases = [fileCase, oneBudget];
  const result = (ruleKey, testCase, { failed, runs, settled }) => ({
    profile: 'race',
    testCase: testCase.name,
    rule: ruleKey,
    trials: 100,
    runs: Int16Array.from({ length: 100 }, () => runs),
    budgets: [{ name: testCase.budgets[0].name, failed, good: 100 - failed, settled, runs: 100 * runs }],
  });
  const results = [
    result('fast but wrong', fileCase, { failed: 1, runs: 10, settled: 90 }),
    result('fast but wrong', oneBudget, { failed: 9, runs: 12, settled: 90 }),
    result('honest', fileCase, { failed: 1, runs: 20, settled: 90 }),
    result('honest', oneBudget, { failed: 3, runs: 12, settled: 90 }),
    result('slow', fileCase, { failed: 0, runs: 40, settled: 90 }),
    result('slow', oneBudget, { failed: 0, runs: 12, settled: 90 }),
  ];
  const profiles = [{ ...profile, name: 'race' }];
  const summary = summarizeBounds(results, { profiles, cases, within: 0.05 });
  const row = summary.rows.find((r) => r.rule === 'honest' && r.testCase === 'one');
  expect(row.failRate).toBe(0.03);
  expect(row.mcse).toBeCloseTo(Math.sqrt((0.03 * 0.97) / 100), 12);
  const choice = chooseBoundRule(summary, [{ key: 'fast but wrong' }, { key: 'honest' }, { key: 'slow' }]);
  expect(choice.chosen.key).toBe('honest');
  expect(choice.standing.map(({ key, eligible }) => [key, eligible])).toEqual([
    ['honest', true],
    ['slow', true],
    ['fast but wrong', false],
  ]);
  expect(choice.chosen.fileRatio).toBeCloseTo(20 / choice.chosen.fileLimit, 12);
});

test('the page names the chosen rule in the sentence DEFAULT_BOUND_RULE is checked against, and every case', async () => {
  const { renderBoundDoc, describeRule, BOUND_MARKER } = await import('../../../scripts/lib/bound-doc.js');
  const fileCase = (name, pcts) => ({ name, group: 'file', budgets: [budget('b', pcts)] });
  const cases = [fileCase('default file', [3, 0, 8, 9]), fileCase('default file, pools 1–4', [3, 0, 8]), oneBudget];
  const profiles = ['race', 'quiet'].map((name) => ({ ...profile, name, sources: ['docs/settling/x'], runs: 10 }));
  profiles.forEach((p) => Object.assign(p, { robustSd: 0.02, skew: 0, lag1: 0 }));
  const results = profiles.flatMap((p) =>
    cases.map((testCase) => ({
      profile: p.name,
      testCase: testCase.name,
      rule: rule.key,
      trials: 100,
      runs: Int16Array.from({ length: 100 }, () => 14),
      budgets: [{ name: testCase.budgets[0].name, failed: 2, good: 97, settled: 60, runs: 1400 }],
    })),
  );
  const summary = summarizeBounds(results, { profiles, cases, within: 0.05 });
  const study = { profiles, cases, rules: [rule], summary, choice: chooseBoundRule(summary, [rule]) };
  const spread = { folders: ['a', 'b'], observedSd: 0.03, noiseSd: 0.02, interactionSd: 0.02 };
  spread.widest = { budget: 'b', setting: 'pool 2', gaps: [0.01, 0.05] };
  const page = renderBoundDoc(
    { ...study, trials: 100, fileTrials: 100, criticalTrials: 100, cap: 8, within: 0.05 },
    { seed: 1, spread },
  );
  expect(page.startsWith(BOUND_MARKER)).toBe(true);
  expect(page).toContain(`**Chosen rule: ${describeRule(rule)}**`);
  expect(describeRule(rule)).toBe(
    '`pooled`, n0 = 2, first look at round 3, exact pocock spending, winsorising off, step-down off, futility from round 3 with 1 SE of hope',
  );
  for (const { name } of cases) expect(page).toContain(`| race | ${name} |`);
  expect(page).toContain('### What the bound covers: this invocation, on this host');
});
