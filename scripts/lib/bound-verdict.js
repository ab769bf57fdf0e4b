// What the bound study's counts say: per rule, profile and case the rates with their Monte Carlo error, the runs
// against the limits of scripts/lib/bound-limit.js, and the rule chosen by criteria fixed here before any run.
import { fixedSampleRuns, oracleRuns } from './bound-limit.js';

/** The hard constraint: a rule's printed bound may fail in at most this share of answers, in every profile and case. */
export const MAX_BOUND_FAILURES = 0.05;

/** The share of good picks (the recommendation truly within the margin) the issue asks for. */
export const MIN_PGS = 0.95;

/** The default file's cases (all four pools; pools 1–4 only) and the profile its goal is judged on. */
export const FILE_CASES = ['default file', 'default file, pools 1–4'];
export const FILE_PROFILE = 'race';

/** The issue's goal for the chosen rule: expected runs at most this many times the oracle's on the default file. */
export const LIMIT_RATIO_GOAL = 1.3;

/**
 * @param {object[]} results  simulateCase outputs
 * @returns {{ rows: object[], totals: object[] }}  rows: per rule, profile, case and budget; totals: per rule, profile
 *   and case (runs in all, against the limits summed over its budgets)
 */
export function summarizeBounds(results, { profiles, cases, within }) {
  const alpha = 0.05;
  const rows = [];
  const totals = [];
  for (const result of results) {
    const profile = profiles.find(({ name }) => name === result.profile);
    const testCase = cases.find(({ name }) => name === result.testCase);
    const own = result.budgets.map((tally, b) => {
      const budget = testCase.budgets[b];
      const cheapest = Math.min(...budget.settings.map(({ pool }) => pool));
      const settings = budget.settings.map(({ pool, gap }) => ({
        gap,
        scale: profile.cheapScale ? profile.cheapScale[pool === cheapest ? 0 : 1] : 1,
      }));
      const failRate = tally.failed / result.trials;
      const settled = tally.settled / result.trials;
      const options = { sd: profile.sd, within, alpha, power: settled };
      const row = {
        rule: result.rule,
        profile: result.profile,
        testCase: result.testCase,
        group: testCase.group,
        budget: tally.name,
        trials: result.trials,
        failRate,
        mcse: Math.sqrt((failRate * (1 - failRate)) / result.trials),
        good: tally.good / result.trials,
        settled,
        runs: tally.runs / result.trials,
        limit: oracleRuns(settings, options),
        fixed: fixedSampleRuns(settings, options),
      };
      rows.push(row);
      return row;
    });
    const runs = result.runs.reduce((sum, r) => sum + r, 0) / result.trials;
    const limit = own.reduce((sum, row) => sum + row.limit, 0);
    totals.push({
      rule: result.rule,
      profile: result.profile,
      testCase: result.testCase,
      group: testCase.group,
      trials: result.trials,
      runs,
      limit,
      ratio: runs / limit,
      fixed: own.reduce((sum, row) => sum + row.fixed, 0),
      settled: own.reduce((sum, row) => sum + row.settled, 0) / own.length,
      allSettled: null,
      worstFail: Math.max(...own.map((row) => row.failRate)),
      minGood: Math.min(...own.map((row) => row.good)),
    });
  }
  return { rows, totals };
}

/**
 * The rule, fixed before the runs: of the rules whose bound fails in at most MAX_BOUND_FAILURES of answers in every
 * profile, case and budget, the one with the fewest expected runs against the oracle's limit on the default file
 * (FILE_PROFILE); ties go to the larger share of good picks. When none keeps its bound, the one with the fewest
 * failures at its worst, and the page says so.
 */
export function chooseBoundRule({ rows, totals }, rules) {
  const standing = rules
    .map((rule) => {
      const own = rows.filter((row) => row.rule === rule.key);
      const worst = own.reduce((top, row) => (row.failRate > top.failRate ? row : top));
      const file = totals.find(
        (total) => total.rule === rule.key && total.profile === FILE_PROFILE && total.testCase === FILE_CASES[0],
      );
      return {
        rule,
        key: rule.key,
        worstFail: worst.failRate,
        worstMcse: worst.mcse,
        worstAt: `${worst.profile}, ${worst.testCase}${worst.budget === worst.testCase ? '' : ` (${worst.budget})`}`,
        minGood: Math.min(...own.map((row) => row.good)),
        fileRuns: file?.runs ?? null,
        fileLimit: file?.limit ?? null,
        fileRatio: file?.ratio ?? Infinity,
        fileSettled: file?.settled ?? 0,
        eligible: worst.failRate <= MAX_BOUND_FAILURES,
      };
    })
    .sort(
      (u, v) =>
        Number(v.eligible) - Number(u.eligible) ||
        (u.eligible ? u.fileRatio - v.fileRatio || v.minGood - u.minGood : u.worstFail - v.worstFail),
    );
  return { chosen: standing[0], standing, anyEligible: standing[0].eligible };
}
