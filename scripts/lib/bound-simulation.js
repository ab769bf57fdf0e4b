// The bound study's trials (`npm run bench:stats`): one case under one noise profile and one candidate rule, raced
// `trials` times by the runner's own scheduler (scripts/lib/bound-race.js), tallied per budget. Every rule sees the
// same noise at the same cell, round and place in a round (common random numbers): their differences are not noise
// of the draws.
import { CAP, hash, playTrial, WITHIN } from './bound-race.js';

/**
 * The candidate rules: designs valid by construction (α spent over the looks with a union bound, per pair's rounds),
 * the same with exact group-sequential levels (valid for a Gaussian random walk; shown at the worst cases here),
 * variance methods, the step-down and winsorising (each kept only if the worst cases allow), and the rule as it
 * shipped before this study (α spent at every look; for comparison).
 */
export function listRules() {
  const valid = { n0: 2, from: 3, futilityFrom: 3, futilityHope: 1, winsorize: false, stepDown: false };
  const exactPocock = { shape: 'pocock', kind: 'exact' };
  return [
    {
      key: 'before: hybrid + winsorising + step-down, α at every look',
      method: 'hybrid',
      n0: 2,
      winsorize: true,
      stepDown: true,
      futilityFrom: 3,
    },
    { ...valid, key: 'pooled, union Pocock', method: 'pooled', spending: { shape: 'pocock', kind: 'union' } },
    { ...valid, key: 'pooled, exact Pocock', method: 'pooled', spending: exactPocock },
    {
      ...valid,
      key: 'pooled, exact O’Brien–Fleming',
      method: 'pooled',
      spending: { shape: 'obrien-fleming', kind: 'exact' },
    },
    { ...valid, key: 'paired, exact Pocock', method: 'paired', spending: exactPocock },
    { ...valid, key: 'pooled, exact Pocock + step-down', method: 'pooled', stepDown: true, spending: exactPocock },
    { ...valid, key: 'pooled, exact Pocock + winsorising', method: 'pooled', winsorize: true, spending: exactPocock },
  ];
}

/**
 * @param {{ profile: object, testCase: object, rule: object, trials: number, seed: number }} task
 * @returns {Promise<{ profile: string, testCase: string, rule: string, trials: number, runs: Int16Array,
 *   budgets: { name: string, failed: number, good: number, settled: number, runs: number }[] }>}
 *   runs: each trial's runs in all; per budget: bound failed (the recommendation's true gap above its bound), good
 *   (truly within the margin), settled, and runs summed over the trials
 */
export async function simulateCase({ profile, testCase, rule, trials, seed, cap = CAP, within = WITHIN }) {
  const delta = Math.log1p(within);
  const budgets = testCase.budgets.map(({ name }) => ({ name, failed: 0, good: 0, settled: 0, runs: 0 }));
  const runs = new Int16Array(trials);
  const noiseSeed = hash(seed, profile.name, testCase.name);
  for (let trial = 0; trial < trials; trial++) {
    const result = await playTrial(testCase, rule, profile, { trial, seed: noiseSeed, cap, within });
    runs[trial] = result.runs;
    result.budgets.forEach((answer, b) => {
      const tally = budgets[b];
      const truth = testCase.budgets[b].settings.find(({ pool }) => pool === answer.recommended);
      const gap = truth ? truth.gap : Infinity;
      if (gap > answer.U + 1e-12) tally.failed += 1;
      if (gap <= delta + 1e-12) tally.good += 1;
      if (answer.settled) tally.settled += 1;
      tally.runs += answer.runs;
    });
  }
  return { profile: profile.name, testCase: testCase.name, rule: rule.key, trials, runs, budgets };
}
