#!/usr/bin/env node
// `npm run bench:stats [-- DIR ...]`: which way of comparing two cells settles most on this machine's noise.
// Fits the noise of real result folders (docs/findings/*, docs/statistics/noise and any DIR given), simulates
// pairs of cells with known ratios from it, applies every method of runner/stats/compare-samples.js, unpaired and
// paired by round, with and without the disturbed-run rule, and writes docs/statistics.md: coverage, interval
// width and decision rates per method and runs per cell, the method that wins and why, and the defaults for
// `repetitions` and the adaptive cap that follow. Seeded: the same folders and options give the same page.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { METHOD_NAMES } from '../runner/stats/compare-samples.js';
import { readResults } from '../runner/results/read-results.js';
import { runTasks } from './lib/bench-stats-pool.js';
import { fitNoiseModel } from './lib/noise-model.js';
import { buildScenario } from './lib/stats-simulation.js';
import { CAP_CANDIDATES, chooseCap, chooseRepetitions, chooseWinner, REPETITION_CANDIDATES } from './lib/stats-verdict.js';
import { renderStatisticsDoc } from './lib/statistics-doc.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE = `Usage: npm run bench:stats -- [DIR ...] [--trials N] [--seed N] [--detect P] [--retries N] [--out FILE]

  DIR          more result folders to fit the noise to (docs/findings/* and docs/statistics/noise always are)
  --trials N   simulated pairs of cells per method, runs per cell, scenario and rule (default 2000)
  --seed N     seed of the simulation (default 21)
  --detect P   chance that the disturbed-run rule flags a slowed run (default 0.8)
  --retries N  re-runs a cell may get under that rule (default 2)
  --out FILE   the page to write (default docs/statistics.md)`;

export const RUNS_PER_CELL = [3, 5, 6, 10];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    trials: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '21' },
    detect: { type: 'string', default: '0.8' },
    retries: { type: 'string', default: '2' },
    out: { type: 'string', default: join(ROOT, 'docs/statistics.md') },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const options = { trials: Number(values.trials), seed: Number(values.seed), detect: Number(values.detect), retries: Number(values.retries) };
if (!(options.trials >= 100) || !Number.isInteger(options.seed) || !(options.detect >= 0 && options.detect <= 1) || !(options.retries >= 0)) {
  process.stderr.write(`bench:stats: bad option value\n${USAGE}\n`);
  process.exit(2);
}

const started = Date.now();
const folders = listFolders(positionals).map((dir) => readResults(dir));
const model = fitNoiseModel(folders);
process.stderr.write(`fitted ${model.runs} runs of ${model.sources.length} cells: core sd ${pct(model.coreSd)}, spikes ${pct(model.spikeRate)} of runs (> ${pct(model.threshold)})\n`);

const scenarios = [
  buildScenario(model, { name: 'fitted', title: 'as fitted', sharedRate: model.shared.sharedRate, roundSd: model.shared.roundSd }),
  // No slow period hits both cells of a round, and no round is slower for all: what pairing cannot help with.
  buildScenario(model, { name: 'independent', title: 'slow runs independent of the round', sharedRate: 0, roundSd: 0 }),
];
const rules = [{ name: 'off', detect: 0 }, { name: 'on', detect: options.detect }];
const variants = METHOD_NAMES.flatMap((method) => [false, true].map((paired) => ({ method, paired })));

const shared = { model, trials: options.trials, seed: options.seed, detect: options.detect, retries: options.retries };
const progress = (done, total, task, seconds) => process.stderr.write(`[${done}/${total}] ${task.key}: ${seconds.toFixed(1)} s\n`);

const fixedTasks = scenarios.flatMap((scenario) => rules.flatMap((rule) => RUNS_PER_CELL.map((n) => ({
  kind: 'fixed', key: `${scenario.name} rule-${rule.name} n=${n}`, scenario, n, detect: rule.detect, variants, rule: rule.name,
}))));
const fixed = await runTasks(fixedTasks, shared, progress);
const results = fixedTasks.flatMap((task, i) => fixed[i].map((summary, v) => ({ scenario: task.scenario.name, rule: task.rule, n: task.n, ...variants[v], ...summary })));
const winner = chooseWinner(results, variants);
process.stderr.write(`winner: ${winner.method}${winner.paired ? ' paired' : ''}\n`);

// The defaults: the winner on the fitted noise with the disturbed-run rule on, first at a fixed number of runs,
// then adaptive from the chosen repetitions up to each candidate cap.
const variant = { method: winner.method, paired: winner.paired };
const adaptiveTrials = Math.max(100, Math.round(options.trials / 2));
const schedule = (start, cap) => ({ kind: 'adaptive', key: `adaptive ${start}→${cap}`, scenario: scenarios[0], variant, start, cap, trials: adaptiveTrials });
const fixedRuns = await runTasks(REPETITION_CANDIDATES.map((n) => schedule(n, n)), shared, progress);
const { repetitions, fixed: fixedRated } = chooseRepetitions(REPETITION_CANDIDATES.map((n, i) => ({ n, rows: fixedRuns[i] })));
const caps = CAP_CANDIDATES.filter((cap) => cap > repetitions);
const adaptiveRuns = await runTasks(caps.map((cap) => schedule(repetitions, cap)), shared, progress);
const { cap, adaptive } = chooseCap(caps.map((c, i) => ({ cap: c, rows: adaptiveRuns[i] })));
const defaults = { repetitions, cap, fixed: fixedRated, adaptive, trials: adaptiveTrials };

const page = renderStatisticsDoc({ model, scenarios, rules, variants, results, winner, defaults, options, runsPerCell: RUNS_PER_CELL, folders: folders.map(({ dir }) => relative(ROOT, dir) || '.') });
writeFileSync(values.out, page);
process.stdout.write(`${page}\n`);
process.stderr.write(`wrote ${relative(ROOT, values.out)} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);

// docs/findings/*, docs/statistics/noise, then the folders given, each once.
function listFolders(given) {
  const findings = join(ROOT, 'docs/findings');
  const defaults = readdirSync(findings).map((name) => join(findings, name)).filter((dir) => existsSync(join(dir, 'runs.csv')));
  const noise = join(ROOT, 'docs/statistics/noise');
  if (existsSync(join(noise, 'runs.csv'))) defaults.push(noise);
  return [...new Set([...defaults, ...given.map((dir) => resolve(dir))])].sort();
}

function pct(share) {
  return `${(100 * share).toFixed(1)}%`;
}
