// The bound study of `npm run bench:stats`, end to end: noise profiles fitted to the committed folders, the truths,
// one task per (profile, truth) on the worker pool, the summaries and the rule they choose.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readResults } from '../../runner/results/read-results.js';
import { runTasks } from './bench-stats-pool.js';
import { fitRoundNoise, readTruths } from './bound-noise.js';
import { chooseBoundRule, summarizeBounds } from './bound-verdict.js';
import { CAP, listGridMethods, listRules, WITHIN } from './bound-simulation.js';
import { fitNoiseModel } from './noise-model.js';

/** The folders the profiles are fitted to, relative to the repository. */
export const BOUND_SOURCES = {
  quiet: 'docs/settling/default-experiments',
  noisy: 'docs/statistics/quiet/noise-3',
  spikes: 'docs/findings',
};

/** The adversarial profiles' factors on each run's own noise: the cheapest setting, every other (3× apart). */
export const CHEAP_NOISY = [1.5, 0.5];

/**
 * The six-setting race: the default file's two cpus = 2 budgets with pools 16 and 32 added, at gaps to the best
 * the folders do not hold (no pool of 16 or 32 was run): the study's assumption, pools past the cores slightly
 * slower. Log gaps from these percentages.
 */
export const RACE_EXTENSION = {
  'pbkdf2 cpus=2': [
    { pool: 16, pct: 3 },
    { pool: 32, pct: 5 },
  ],
  'argon2 cpus=2': [
    { pool: 16, pct: 5 },
    { pool: 32, pct: 8 },
  ],
};

/** Least-favourable configurations (four settings, costs as pools 1, 2, 4, 8): where a bound is most easily wrong. */
export const LEAST_FAVOURABLE = [
  { name: 'cheapest +4.9%, the rest tied', pcts: [4.9, 0, 0, 0] },
  { name: 'cheapest +5.5%, the rest tied', pcts: [5.5, 0, 0, 0] },
  { name: 'cheapest +8%, the rest tied', pcts: [8, 0, 0, 0] },
];

export function buildBoundProfiles(root) {
  const quiet = fitRoundNoise('quiet', [readResults(join(root, BOUND_SOURCES.quiet))]);
  const noisy = fitRoundNoise('noisy', [readResults(join(root, BOUND_SOURCES.noisy))]);
  const findings = join(root, BOUND_SOURCES.spikes);
  const spikeModel = fitNoiseModel(
    readdirSync(findings)
      .sort()
      .map((name) => join(findings, name))
      .filter((dir) => existsSync(join(dir, 'runs.csv')))
      .map((dir) => readResults(dir)),
  );
  const plain = { spikeRate: 0, spikes: [], cheapScale: null };
  return [
    { ...quiet, ...plain, source: BOUND_SOURCES.quiet },
    { ...noisy, ...plain, source: BOUND_SOURCES.noisy },
    {
      ...quiet,
      name: 'spikes',
      source: `${BOUND_SOURCES.quiet} + the spikes of ${BOUND_SOURCES.spikes}/*`,
      spikeRate: spikeModel.spikeRate,
      spikes: spikeModel.spikes,
      cheapScale: null,
    },
    { ...quiet, ...plain, name: 'quiet, cheap 3× noisier', source: BOUND_SOURCES.quiet, cheapScale: CHEAP_NOISY },
    { ...noisy, ...plain, name: 'noisy, cheap 3× noisier', source: BOUND_SOURCES.noisy, cheapScale: CHEAP_NOISY },
  ];
}

export function buildBoundTruths(root) {
  const defaults = readTruths(readResults(join(root, BOUND_SOURCES.quiet)))
    .sort((u, v) => u.name.localeCompare(v.name))
    .map((truth) => ({ ...truth, group: 'default' }));
  const races = defaults
    .filter(({ name }) => RACE_EXTENSION[name])
    .map((truth) => ({
      name: `${truth.name}, pools 1–32`,
      group: 'race',
      settings: [
        ...truth.settings,
        ...RACE_EXTENSION[truth.name].map(({ pool, pct }) => ({
          id: `pool ${pool}`,
          cost: pool + 1,
          gap: Math.log1p(pct / 100),
        })),
      ],
    }));
  const leastFavourable = LEAST_FAVOURABLE.map(({ name, pcts }) => ({
    name,
    group: 'least favourable',
    settings: pcts.map((pct, i) => ({ id: `pool ${2 ** i}`, cost: 2 ** i + 1, gap: Math.log1p(pct / 100) })),
  }));
  return [...defaults, ...races, ...leastFavourable];
}

/**
 * @returns {Promise<object>} { profiles, truths, rules, gridMethods, summary, choice, trials, cap, within }
 */
export async function runBoundStudy(root, { trials, seed }, onProgress) {
  const profiles = buildBoundProfiles(root);
  const truths = buildBoundTruths(root);
  const rules = listRules();
  const gridMethods = listGridMethods();
  const tasks = profiles.flatMap((profile) =>
    truths.map((truth) => ({
      kind: 'bound',
      key: `bound ${profile.name} · ${truth.name}`,
      profile: {
        name: profile.name,
        residuals: profile.residuals,
        roundSd: profile.roundSd,
        phi: profile.phi,
        spikeRate: profile.spikeRate,
        spikes: profile.spikes,
        cheapScale: profile.cheapScale,
      },
      truth,
      trials,
      rules,
      gridMethods,
    })),
  );
  const results = await runTasks(tasks, { seed }, onProgress);
  const summary = summarizeBounds(results, truths);
  const choice = chooseBoundRule(summary, rules);
  return { profiles, truths, rules, gridMethods, summary, choice, trials, cap: CAP, within: WITHIN };
}
