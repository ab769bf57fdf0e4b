// The bound study of `npm run bench:stats`, end to end: noise profiles fitted to the committed race folders, truths
// pooled from the quiet folders of the default file, the worst cases of each design, one task per (profile, case,
// rule) on the worker pool, the summaries, the limits and the rule they choose.
import { join } from 'node:path';
import { readResults } from '../../runner/results/read-results.js';
import { runTasks } from './bench-stats-pool.js';
import { fitRoundNoise, readReferenceTruths } from './bound-noise.js';
import { CAP, WITHIN } from './bound-race.js';
import { listRules } from './bound-simulation.js';
import { chooseBoundRule, FILE_CASES, MAX_BOUND_FAILURES, summarizeBounds } from './bound-verdict.js';

/**
 * The folders the profiles and the truths come from, relative to the repository. `busy`: the default file run beside
 * a program that kept one CPU busy, its kept runs (the rule that leaves disturbed runs out never reads their value):
 * a bound must hold on the host a person has, not only on a quiet one.
 */
export const BOUND_SOURCES = {
  race: ['docs/settling/race-1', 'docs/settling/race-2', 'docs/settling/race-3'],
  // The same file raced three times on a noisier day of this host (3.8–5.2% a run), with the rule of its day: the
  // noise a rule must also keep its bound in (the rounds a race ran do not enter a noise fit).
  earlier: ['docs/settling/earlier-race-1', 'docs/settling/earlier-race-2', 'docs/settling/earlier-race-3'],
  quiet: ['docs/settling/default-experiments'],
  busy: ['docs/settling/busy-1', 'docs/settling/busy-2'],
  reference: [
    'docs/settling/default-experiments',
    'docs/settling/race-1',
    'docs/settling/race-2',
    'docs/settling/race-3',
  ],
};

/** The adversarial profile's factors on each run's own noise: the cheapest setting, every other (3× apart). */
export const CHEAP_NOISY = [1.5, 0.5];

/**
 * Where a bound is most easily wrong (costs as pools 1, 2, 4, 8): the cheapest just outside the margin with one best
 * and the rest far worse (eliminated, so a step-down leaves a family of two), the same with the cheapest just inside
 * (a good pick whose bound may still undercut its truth), a budget of two settings, and the cheapest just outside
 * with the rest tied (the case of a bound without the step-down). Gaps in per cent.
 */
export const WORST_CASES = [
  { name: 'cheapest +5.5%, one best, two +30%', pcts: [5.5, 0, 30, 30] },
  { name: 'cheapest +4.9%, one best, two +30%', pcts: [4.9, 0, 30, 30] },
  { name: 'two settings: cheapest +5.5%', pcts: [5.5, 0] },
  { name: 'cheapest +5.5%, the rest tied', pcts: [5.5, 0, 0, 0] },
];

/**
 * The profiles: the races pooled, the noisiest race alone (by its fitted own noise: a day's race may be noisier than
 * the pool), the races of a noisier day, the quiet grid, the busy host, and both sets of races with the cheapest
 * setting three times as noisy as the rest.
 */
export function buildBoundProfiles(root) {
  const fit = (name, dirs) => ({
    ...fitRoundNoise(
      name,
      dirs.map((dir) => readResults(join(root, dir))),
    ),
    cheapScale: null,
    sources: dirs,
  });
  const race = fit('race', BOUND_SOURCES.race);
  const [noisiest] = BOUND_SOURCES.race.map((dir) => fit(dir.split('/').at(-1), [dir])).sort((a, b) => b.sd - a.sd);
  const earlier = fit('earlier races', BOUND_SOURCES.earlier);
  return [
    race,
    noisiest,
    earlier,
    fit('quiet', BOUND_SOURCES.quiet),
    fit('busy', BOUND_SOURCES.busy),
    { ...race, name: 'race, cheap 3× noisier', cheapScale: CHEAP_NOISY },
    { ...earlier, name: 'earlier races, cheap 3× noisier', cheapScale: CHEAP_NOISY },
  ];
}

/** The cases: the default file's four budgets (pooled reference truths), the same with pools 1–4, the worst cases. */
export function buildBoundCases(root) {
  const reference = readReferenceTruths(BOUND_SOURCES.reference.map((dir) => readResults(join(root, dir))));
  const file = reference.map(({ name, workload, cpus, settings }) => ({ name, workload, cpus, settings }));
  return [
    { name: FILE_CASES[0], group: 'file', budgets: file },
    {
      name: FILE_CASES[1],
      group: 'file',
      budgets: file.map((budget) => ({ ...budget, settings: budget.settings.filter(({ pool }) => pool <= 4) })),
    },
    ...WORST_CASES.map(({ name, pcts }) => ({ name, group: 'worst', budgets: [makeBudget(name, pcts)] })),
  ];
}

/**
 * A budget of pools 1, 2, 4, 8 … (pbkdf2 on 2 CPUs) with these true gaps to its best, in per cent. Each pool's memory
 * (100 MB a thread of the pool) puts it a step of the advice's cost order apart: pool 1 is the cheapest, then 2, 4, 8.
 */
export function makeBudget(name, pcts) {
  return {
    name,
    workload: 'pbkdf2',
    cpus: 2,
    settings: pcts.map((pct, i) => ({
      id: `pool ${2 ** i}`,
      pool: 2 ** i,
      cost: 2 ** i + 1,
      gap: Math.log1p(pct / 100),
      memory: 100 * 2 ** i,
    })),
  };
}

/**
 * Every rule on every profile and case at the screening counts; then the worst cases of the chosen rule, and of any
 * cheaper one the screening could not tell from the limit, again at `criticalTrials` (where a 5% rate must be told
 * from 6–7%), and the choice made again on those — until no such rule is left.
 * @param {{ trials: number, fileTrials: number, criticalTrials: number, seed: number }} options  trials: per worst
 *   case, profile and rule; fileTrials: per file case, profile and rule
 */
export async function runBoundStudy(root, { trials, fileTrials, criticalTrials, seed }, onProgress) {
  const profiles = buildBoundProfiles(root);
  const cases = buildBoundCases(root);
  const rules = listRules();
  const results = await runTasks(listTasks(profiles, cases, rules, { trials, fileTrials }), { seed }, onProgress);
  const confirmed = new Set();
  let summary = summarizeBounds(results, { profiles, cases, within: WITHIN });
  let choice = chooseBoundRule(summary, rules);
  for (let pending = listPending(choice, confirmed); pending.length > 0; pending = listPending(choice, confirmed)) {
    const worst = cases.filter(({ group }) => group === 'worst');
    pending.forEach(({ key }) => confirmed.add(key));
    const again = await runTasks(
      listTasks(
        profiles,
        worst,
        pending.map(({ rule }) => rule),
        { trials: criticalTrials, fileTrials },
      ),
      { seed },
      onProgress,
    );
    for (const result of again) {
      const at = results.findIndex(
        (r) => r.rule === result.rule && r.profile === result.profile && r.testCase === result.testCase,
      );
      results[at] = result;
    }
    summary = summarizeBounds(results, { profiles, cases, within: WITHIN });
    choice = chooseBoundRule(summary, rules);
  }
  return { profiles, cases, rules, summary, choice, trials, fileTrials, criticalTrials, cap: CAP, within: WITHIN };
}

/**
 * The rules whose worst cases must run again at the critical count: the chosen one, and any rule that takes fewer
 * runs against the oracle and failed within two Monte Carlo errors of the limit (not told apart from it yet).
 */
function listPending({ chosen, standing }, confirmed) {
  const near = (row) => row.worstFail <= MAX_BOUND_FAILURES + 2 * row.worstMcse;
  return standing.filter(
    (row) =>
      !confirmed.has(row.key) &&
      ((row.key === chosen.key && row.eligible) || (near(row) && row.fileRatio < chosen.fileRatio)),
  );
}

/** One task per profile, case and rule: the worst cases on every profile, the file's on the plain ones. */
function listTasks(profiles, cases, rules, { trials, fileTrials }) {
  return profiles.flatMap((profile) =>
    cases
      .filter((testCase) => testCase.group === 'worst' || !profile.cheapScale)
      .flatMap((testCase) =>
        rules.map((rule) => ({
          kind: 'bound',
          key: `bound ${profile.name} · ${testCase.name} · ${rule.key}`,
          profile: {
            name: profile.name,
            residuals: profile.residuals,
            roundSd: profile.roundSd,
            phi: profile.phi,
            adjacent: profile.adjacent,
            cheapScale: profile.cheapScale,
          },
          testCase,
          rule,
          trials: testCase.group === 'file' ? fileTrials : trials,
        })),
      ),
  );
}
