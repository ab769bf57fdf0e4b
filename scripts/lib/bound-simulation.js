// The bound study of `npm run bench:stats`: budgets with known true gaps drawn from a fitted noise profile
// (scripts/lib/bound-noise.js), raced round by round by the production decision (runner/verdicts/choose-setting.js,
// on runner/stats/mcb.js) under each candidate rule, and run as today's grid for reference. Every rule and the grid
// see the same draws in a trial (common random numbers), so their differences are not noise of the draws.
import { chooseSetting } from '../../runner/verdicts/choose-setting.js';

/** The margin of the default experiments.yml (`recommend: {within: 5%}`). */
export const WITHIN = 0.05;

/** The most rounds a setting may run: today's race cap, and the grid the runs are counted against. */
export const CAP = 10;

/** Today's grid: every setting this many rounds, the answer read once at the end. */
export const GRID_RUNS = [4, 10];

/** The rounds with paired variances before futility may stop a candidate (docs: too few pairs say nothing). */
const PAIRED_FUTILITY_FROM = 5;

/** Futility needs a few rounds of differences to project from: never before this round. */
const FUTILITY_FROM = 3;

/**
 * The candidate rules: each variance method of mcb.js × n0 (rounds before any drop) × one winsorising pass or none
 * (for the methods built on the two-way fit that pools: pooled and hybrid) × the step down or none (the quantile
 * spread over the settings not eliminated; tried with the short starts, where it can shorten the race).
 */
export function listRules() {
  const rules = [];
  for (const method of ['pooled', 'hybrid', 'paired', 'blocked-welch', 'welch']) {
    for (const winsorize of method === 'pooled' || method === 'hybrid' ? [false, true] : [false]) {
      for (const n0 of [2, 3, 4, 5]) {
        for (const stepDown of n0 <= 3 ? [false, true] : [false]) {
          const futilityFrom = Math.max(n0, method === 'paired' ? PAIRED_FUTILITY_FROM : FUTILITY_FROM);
          rules.push({
            key: ruleKey({ method, n0, winsorize, stepDown }),
            method,
            n0,
            winsorize,
            stepDown,
            futilityFrom,
          });
        }
      }
    }
  }
  return rules;
}

export function ruleKey({ method, n0, winsorize, stepDown = false }) {
  return `${method}${winsorize ? ' + winsorising' : ''}${stepDown ? ' + step-down' : ''}, n0 = ${n0}`;
}

/** The variance methods as the grid uses them (one answer after a fixed number of rounds: n0 plays no part). */
export function listGridMethods() {
  return listRules()
    .filter(({ n0, stepDown }) => n0 === 3 && !stepDown)
    .map(({ method, winsorize }) => ({ method, winsorize }));
}

/**
 * One trial's noise: rows × k log values (row-major), truth gap + the round's shift + the setting's own noise (scaled
 * for the adversarial profiles) + a one-sided spike now and then.
 */
export function drawTrial(profile, truth, rows, random) {
  const k = truth.settings.length;
  const draw = new Float64Array(rows * k);
  const scales = scalesOf(profile, k);
  const innovation = Math.sqrt(1 - profile.phi * profile.phi);
  let shift = profile.roundSd * normal(random);
  for (let r = 0; r < rows; r++) {
    if (r > 0) shift = profile.phi * shift + innovation * profile.roundSd * normal(random);
    for (let i = 0; i < k; i++) {
      let value = truth.settings[i].gap + shift;
      value += scales[i] * profile.residuals[Math.floor(random() * profile.residuals.length)];
      if (profile.spikeRate > 0 && random() < profile.spikeRate)
        value += profile.spikes[Math.floor(random() * profile.spikes.length)];
      draw[r * k + i] = value;
    }
  }
  return draw;
}

/** Per setting, the factor on its own noise: the adversarial profiles give the cheapest three times the others'. */
export function scalesOf(profile, k) {
  return Array.from({ length: k }, (_, i) =>
    profile.cheapScale ? (i === 0 ? profile.cheapScale[0] : profile.cheapScale[1]) : 1,
  );
}

/** The race: round after round, the settings the last decision asked for, until it asks for none. */
export function runRace(draw, truth, rule, { cap = CAP, within = WITHIN } = {}) {
  const k = truth.settings.length;
  const settings = truth.settings.map(({ id, cost }) => ({ id, cost, values: [] }));
  const index = new Map(settings.map(({ id }, i) => [id, i]));
  let next = settings.map(({ id }) => id);
  let runs = 0;
  let decision = null;
  // A setting may sit out rounds and come back, so the rounds may outnumber the cap; each setting never passes it.
  const rows = draw.length / k;
  for (let r = 0; r < rows && next.length > 0; r++) {
    for (const id of next) {
      const i = index.get(id);
      settings[i].values.push({ round: r + 1, value: 1000 * Math.exp(draw[r * k + i]) });
      runs += 1;
    }
    decision = chooseSetting(settings, { within, cap, rule });
    next = decision.nextRound;
  }
  return { runs, decision };
}

/** Today's grid with the new answer: every setting n rounds, one decision at the end. */
export function runGrid(draw, truth, n, { method, winsorize }, { within = WITHIN } = {}) {
  const k = truth.settings.length;
  const settings = truth.settings.map(({ id, cost }, i) => ({
    id,
    cost,
    values: Array.from({ length: n }, (_, r) => ({ round: r + 1, value: 1000 * Math.exp(draw[r * k + i]) })),
  }));
  const decision = chooseSetting(settings, { within, cap: n, rule: { method, winsorize, n0: 2, futilityFrom: 2 } });
  return { runs: n * k, decision };
}

/**
 * `trials` budgets of one truth under one profile, every rule raced and every grid method at GRID_RUNS on the same
 * draws. Per policy: counts (bound failed: the recommendation's true gap above its reported bound; good: the
 * recommendation truly within `within` of the best; settled), runs, and each trial's runs, settled flag and bound
 * (for the whole file and the medians).
 */
export function simulateBounds(profile, truth, { trials, random, rules, gridMethods, cap = CAP, within = WITHIN }) {
  const k = truth.settings.length;
  const delta = Math.log1p(within);
  const policies = [
    ...rules.map((rule) => ({
      key: rule.key,
      kind: 'race',
      play: (draw) => runRace(draw, truth, rule, { cap, within }),
    })),
    ...gridMethods.flatMap((method) =>
      GRID_RUNS.map((n) => ({
        key: gridKey(method, n),
        kind: 'grid',
        play: (draw) => runGrid(draw, truth, n, method, { within }),
      })),
    ),
  ];
  const tallies = policies.map(({ key, kind }) => ({
    key,
    kind,
    trials,
    failed: 0,
    good: 0,
    settled: 0,
    runs: 0,
    perTrial: {
      runs: new Int16Array(trials),
      settled: new Uint8Array(trials),
      good: new Uint8Array(trials),
      bound: new Float64Array(trials),
    },
  }));
  for (let trial = 0; trial < trials; trial++) {
    const draw = drawTrial(profile, truth, 2 * cap, random);
    policies.forEach(({ play }, p) => {
      const { runs, decision } = play(draw);
      const gap = truth.settings.find(({ id }) => id === decision.recommended).gap;
      const tally = tallies[p];
      if (gap > decision.U + 1e-12) tally.failed += 1;
      const good = gap <= delta + 1e-12;
      if (good) tally.good += 1;
      tally.perTrial.good[trial] = good ? 1 : 0;
      if (decision.status === 'settled') tally.settled += 1;
      tally.runs += runs;
      tally.perTrial.runs[trial] = runs;
      tally.perTrial.settled[trial] = decision.status === 'settled' ? 1 : 0;
      tally.perTrial.bound[trial] = decision.U;
    });
  }
  return { profile: profile.name, truth: truth.name, k, gridRuns: cap * k, tallies };
}

export function gridKey({ method, winsorize }, n) {
  return `grid ${n} (${method}${winsorize ? ' + winsorising' : ''})`;
}

/** Box–Muller: one standard normal from two uniforms. */
function normal(random) {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
