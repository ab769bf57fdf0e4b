// What the bound study's counts say: per policy, profile and truth the rates; per policy and profile the whole
// default file; and the rule chosen by criteria fixed here before any run.
import { quantileSorted } from 'simple-statistics';

/** The hard constraint: a rule's reported bound may fail (true gap above it) in at most this share of trials, in
 * every profile and every truth. */
export const MAX_BOUND_FAILURES = 0.05;

/** The probability of a good selection a rule should reach (printed; open answers carry no guarantee). */
export const MIN_PGS = 0.95;

/** The default file's goal (issue 28): every budget settled in at most this many runs. */
export const FILE_RUNS = 60;

/** The profile the default file's goal is judged on: the host when it is quiet. */
export const FILE_PROFILE = 'quiet';

/**
 * @param {object[]} results  simulateBounds outputs, one per (profile, truth)
 * @returns {{ cells: object[], files: object[] }}
 */
export function summarizeBounds(results, truths) {
  const cells = results.flatMap(({ profile, truth, gridRuns, tallies }) =>
    tallies.map((tally) => {
      const bounds = Float64Array.from(tally.perTrial.bound).sort();
      return {
        profile,
        truth,
        group: truths.find(({ name }) => name === truth).group,
        key: tally.key,
        kind: tally.kind,
        trials: tally.trials,
        failRate: tally.failed / tally.trials,
        pgs: tally.good / tally.trials,
        settled: tally.settled / tally.trials,
        runs: tally.runs / tally.trials,
        runsRatio: tally.runs / tally.trials / gridRuns,
        medianBound: Math.expm1(quantileSorted(bounds, 0.5)),
      };
    }),
  );
  const defaults = truths.filter(({ group }) => group === 'default').map(({ name }) => name);
  const files = [];
  for (const profile of [...new Set(results.map((r) => r.profile))]) {
    const budgets = results.filter((r) => r.profile === profile && defaults.includes(r.truth));
    if (budgets.length !== defaults.length) continue;
    for (const [p, { key, kind, trials }] of budgets[0].tallies.entries()) {
      const runs = new Float64Array(trials);
      let allSettled = 0;
      let within = 0;
      let allGood = 0;
      for (let t = 0; t < trials; t++) {
        let settled = true;
        let good = true;
        for (const budget of budgets) {
          const { perTrial } = budget.tallies[p];
          runs[t] += perTrial.runs[t];
          settled &&= perTrial.settled[t] === 1;
          good &&= perTrial.good[t] === 1;
        }
        if (settled) allSettled += 1;
        if (settled && runs[t] <= FILE_RUNS) within += 1;
        if (good) allGood += 1;
      }
      const sorted = runs.slice().sort();
      files.push({
        profile,
        key,
        kind,
        trials,
        runsMean: sorted.reduce((sum, r) => sum + r, 0) / trials,
        runsP90: quantileSorted(sorted, 0.9),
        allSettled: allSettled / trials,
        settledWithin: within / trials,
        allGood: allGood / trials,
      });
    }
  }
  return { cells, files };
}

/**
 * The rule, fixed before the runs: of the raced rules whose bound fails in at most MAX_BOUND_FAILURES of trials in
 * every profile and truth, the one that most often settles the whole default file in at most FILE_RUNS runs on the
 * FILE_PROFILE profile; ties go to the higher share of budgets settled (mean over every profile and truth), then to
 * fewer runs against the grid of the cap. When no rule keeps the bound, the one with the fewest worst-case failures,
 * and the page says so.
 */
export function chooseBoundRule({ cells, files }, rules) {
  const standing = rules
    .map((rule) => {
      const own = cells.filter((cell) => cell.key === rule.key);
      const worst = own.reduce((top, cell) => (cell.failRate > top.failRate ? cell : top));
      const file = files.find((f) => f.key === rule.key && f.profile === FILE_PROFILE);
      return {
        rule,
        key: rule.key,
        worstFail: worst.failRate,
        worstAt: `${worst.profile}, ${worst.truth}`,
        minPgs: Math.min(...own.map((cell) => cell.pgs)),
        fileWithin: file ? file.settledWithin : 0,
        fileRuns: file ? file.runsMean : null,
        settled: mean(own.map((cell) => cell.settled)),
        runsRatio: mean(own.map((cell) => cell.runsRatio)),
        eligible: worst.failRate <= MAX_BOUND_FAILURES,
      };
    })
    .sort(
      (u, v) =>
        Number(v.eligible) - Number(u.eligible) ||
        (u.eligible
          ? v.fileWithin - u.fileWithin || v.settled - u.settled || u.runsRatio - v.runsRatio
          : u.worstFail - v.worstFail),
    );
  return { chosen: standing[0], standing, anyEligible: standing[0].eligible };
}

function mean(values) {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}
