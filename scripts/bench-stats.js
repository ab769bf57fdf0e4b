#!/usr/bin/env node
// `npm run bench:stats [-- DIR ...]`: two studies on this machine's noise, one page (docs/statistics.md).
// The comparisons: which way of comparing two cells settles most. Fits the noise of real result folders (one profile
// for docs/findings/*, one for each subfolder of docs/statistics/ — busy, quiet —, one for each DIR given), simulates
// pairs of cells with known ratios from it, applies every method of runner/stats/compare-samples.js, unpaired and
// paired by round, with and without the disturbed-run rule: coverage, interval width and decision rates per method
// and runs per cell, the method that wins and why, and the defaults for `repetitions` and the adaptive cap.
// The bound: which rule answers a budget with "use X: at most U% slower than the best tried (95%)" — the default file
// and the worst case of each design, with known truths, raced by the runner's own scheduler under candidate rules
// and noise fitted to the committed race folders (scripts/lib/bound-study.js): bound failures, good picks and runs
// against the limit of an ideal sequential test; the rule chosen by criteria fixed before the runs. `--study` runs
// one of them and keeps the other's part of the page as it is. Seeded: the same folders and options give the same
// page.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEntryPoint, parseCommandLine, runCommand } from '../runner/commands/command-line.js';
import { LabError } from '../runner/errors.js';
import { METHOD_NAMES } from '../runner/stats/compare-samples.js';
import { readResults } from '../runner/results/read-results.js';
import { runTasks } from './lib/bench-stats-pool.js';
import { fitNoiseModel } from './lib/noise-model.js';
import { measureRealPairs } from './lib/real-pairs.js';
import { buildScenario } from './lib/stats-simulation.js';
import {
  CAP_CANDIDATES,
  chooseCap,
  chooseRepetitions,
  chooseBlocked,
  chooseWinner,
  REPETITION_CANDIDATES,
} from './lib/stats-verdict.js';
import { renderStatisticsDoc } from './lib/statistics-doc.js';
import { BOUND_MARKER, renderBoundDoc } from './lib/bound-doc.js';
import { measureInvocationSpread } from './lib/bound-noise.js';
import { BOUND_SOURCES, runBoundStudy } from './lib/bound-study.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const USAGE = `Usage: npm run bench:stats -- [DIR ...] [--study all|comparisons|bound] [--trials N] [--bound-trials N]
       [--file-trials N] [--critical-trials N] [--bound-results FILE] [--seed N] [--detect P] [--retries N]
       [--out FILE]

  DIR               a result folder to fit a comparison noise profile to, beside docs/findings/* and docs/statistics/*/
  --study S         all (default), or only the comparisons or the bound study: the other part of the page is kept
  --trials N        simulated pairs of cells per method, runs per cell, scenario and rule (default 2000)
  --bound-trials N  races per rule, noise profile and worst case in the bound study (default 1000)
  --file-trials N   races of the whole default file per rule and noise profile in the bound study (default 300)
  --critical-trials N  races per noise profile and worst case for the rule chosen, run again (default 4000)
  --bound-results FILE  keep the bound study's results in FILE (JSON), and when FILE exists, write the page from it
                    without simulating again
  --seed N          seed of the simulation (default 21)
  --detect P        chance that the disturbed-run rule flags a slowed run (default 0.8)
  --retries N       re-runs a cell may get under that rule (default 2)
  --out FILE        the page to write (default docs/statistics.md)`;

const STUDIES = ['all', 'comparisons', 'bound'];

export const RUNS_PER_CELL = [3, 5, 6, 10];

export async function main(argv) {
  const { values, positionals } = parseCommandLine(argv, {
    allowPositionals: true,
    usage: USAGE,
    options: {
      study: { type: 'string', default: 'all' },
      trials: { type: 'string', default: '2000' },
      'bound-trials': { type: 'string', default: '1000' },
      'file-trials': { type: 'string', default: '300' },
      'critical-trials': { type: 'string', default: '4000' },
      'bound-results': { type: 'string' },
      seed: { type: 'string', default: '21' },
      detect: { type: 'string', default: '0.8' },
      retries: { type: 'string', default: '2' },
      out: { type: 'string', default: join(ROOT, 'docs/statistics.md') },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const options = {
    trials: readNumber(values.trials, '--trials', (n) => Number.isInteger(n) && n >= 100, 'a whole number from 100 up'),
    seed: readNumber(values.seed, '--seed', Number.isInteger, 'a whole number'),
    detect: readNumber(values.detect, '--detect', (n) => n >= 0 && n <= 1, 'a probability from 0 to 1'),
    retries: readNumber(values.retries, '--retries', (n) => Number.isInteger(n) && n >= 0, 'a whole number from 0 up'),
    boundTrials: readNumber(values['bound-trials'], '--bound-trials', isTrials, 'a whole number from 100 up'),
    fileTrials: readNumber(values['file-trials'], '--file-trials', isTrials, 'a whole number from 100 up'),
    criticalTrials: readNumber(values['critical-trials'], '--critical-trials', isTrials, 'a whole number from 100 up'),
  };
  if (!STUDIES.includes(values.study)) {
    throw new LabError('ERR_USAGE', `--study takes ${STUDIES.join(', ')}, found ${JSON.stringify(values.study)}`, {
      hint: USAGE,
    });
  }
  const started = Date.now();
  const [kept, keptBound] = values.study === 'all' ? [null, null] : splitPage(values.out, values.study);
  const comparisons = values.study === 'bound' ? kept : await runComparisons(positionals, options);
  const bound = values.study === 'comparisons' ? keptBound : await runBound(options, values['bound-results']);
  const page = `${comparisons.trimEnd()}\n\n${bound}`;
  writeFileSync(values.out, page);
  process.stdout.write(`${page}\n`);
  process.stderr.write(`wrote ${relative(ROOT, values.out)} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  return 0;
}

/**
 * The page as it stands, cut at the bound study's marker: [comparisons part, bound part]; the one asked for must
 * exist.
 */
function splitPage(out, study) {
  const page = existsSync(out) ? readFileSync(out, 'utf8') : '';
  const at = page.indexOf(BOUND_MARKER);
  const parts = at < 0 ? [page, ''] : [page.slice(0, at), page.slice(at)];
  const keep = study === 'bound' ? parts[0] : parts[1];
  if (keep.trim() === '') {
    throw new LabError(
      'ERR_USAGE',
      `${relative(process.cwd(), out)} has no ${study === 'bound' ? 'comparisons' : 'bound study'} part to keep`,
      {
        hint: 'run `npm run bench:stats` without --study once, to write both',
      },
    );
  }
  return parts;
}

async function runBound(options, resultsFile) {
  const kept = resultsFile && existsSync(resultsFile);
  const study = kept
    ? JSON.parse(readFileSync(resultsFile, 'utf8'))
    : await runBoundStudy(
        ROOT,
        {
          trials: options.boundTrials,
          fileTrials: options.fileTrials,
          criticalTrials: options.criticalTrials,
          seed: options.seed,
        },
        progress,
      );
  if (resultsFile && !kept) writeFileSync(resultsFile, JSON.stringify(study));
  const { chosen } = study.choice;
  process.stderr.write(
    `bound rule: ${chosen.key} (worst bound failure ${(100 * chosen.worstFail).toFixed(1)}%, default file ${Number(chosen.fileRatio).toFixed(2)}× the oracle)\n`,
  );
  const spread = {
    folders: BOUND_SOURCES.reference,
    ...measureInvocationSpread(BOUND_SOURCES.reference.map((dir) => readResults(join(ROOT, dir)))),
  };
  return renderBoundDoc(study, { seed: options.seed, spread });
}

function isTrials(n) {
  return Number.isInteger(n) && n >= 100;
}

function progress(done, total, task, seconds) {
  process.stderr.write(`[${done}/${total}] ${task.key}: ${seconds.toFixed(1)} s\n`);
}

async function runComparisons(positionals, options) {
  const variants = METHOD_NAMES.flatMap((method) => [false, true].map((paired) => ({ method, paired })));
  const profiles = listProfiles(positionals).map(({ name, dirs }) => {
    const folders = dirs.map((dir) => readResults(dir));
    const model = fitNoiseModel(folders);
    process.stderr.write(
      `${name}: ${model.runs} runs of ${model.sources.length} cells, core sd ${pct(model.coreSd)}, spikes ${pct(model.spikeRate)} of runs (> ${pct(model.threshold)})\n`,
    );
    // The slow periods as fitted: how often one hits both cells of a round, and a round-wide shift.
    const scenario = buildScenario(model, { name, sharedRate: model.shared.sharedRate, roundSd: model.shared.roundSd });
    return {
      name,
      dirs: dirs.map((dir) => relative(ROOT, dir)),
      model,
      scenario,
      real: measureRealPairs(folders, variants),
    };
  });
  const rules = [
    { name: 'off', detect: 0 },
    { name: 'on', detect: options.detect },
  ];

  const shared = { trials: options.trials, seed: options.seed, detect: options.detect, retries: options.retries };

  const fixedTasks = profiles.flatMap(({ name, model, scenario }) =>
    rules.flatMap((rule) =>
      RUNS_PER_CELL.map((n) => ({
        kind: 'fixed',
        key: `${name} rule-${rule.name} n=${n}`,
        model,
        scenario,
        n,
        detect: rule.detect,
        variants,
        profile: name,
        rule: rule.name,
      })),
    ),
  );
  const fixed = await runTasks(fixedTasks, shared, progress);
  const results = fixedTasks.flatMap((task, i) =>
    fixed[i].map((summary, v) => ({ profile: task.profile, rule: task.rule, n: task.n, ...variants[v], ...summary })),
  );
  const winner = chooseWinner(results, variants);
  process.stderr.write(`winner: ${winner.method}${winner.paired ? ' paired' : ''}\n`);
  const blocked = chooseBlocked(results, winner);

  // The defaults, per profile: the winner without the disturbed-run rule (it is not built yet, and how often it will
  // catch a slowed run is a guess here), first at a fixed number of runs, then adaptive from the chosen repetitions
  // up to each candidate cap.
  const variant = { method: winner.method, paired: winner.paired };
  const adaptiveTrials = Math.max(100, Math.round(options.trials / 2));
  const schedule = ({ name, model, scenario }, start, cap) => ({
    kind: 'adaptive',
    key: `${name} adaptive ${start}→${cap}`,
    model,
    scenario,
    variant,
    start,
    cap,
    trials: adaptiveTrials,
    detect: 0,
  });
  const fixedRuns = await runTasks(
    profiles.flatMap((profile) => REPETITION_CANDIDATES.map((n) => schedule(profile, n, n))),
    shared,
    progress,
  );
  const chosen = profiles.map((profile, p) =>
    chooseRepetitions(
      REPETITION_CANDIDATES.map((n, i) => ({ n, rows: fixedRuns[p * REPETITION_CANDIDATES.length + i] })),
    ),
  );
  const capTasks = profiles.flatMap((profile, p) =>
    CAP_CANDIDATES.filter((cap) => cap > chosen[p].repetitions).map((cap) => ({
      p,
      cap,
      task: schedule(profile, chosen[p].repetitions, cap),
    })),
  );
  const capRuns = await runTasks(
    capTasks.map(({ task }) => task),
    shared,
    progress,
  );
  const defaults = profiles.map((profile, p) => ({
    profile: profile.name,
    ...chosen[p],
    ...chooseCap(capTasks.flatMap(({ p: q, cap }, i) => (q === p ? [{ cap, rows: capRuns[i] }] : []))),
    trials: adaptiveTrials,
  }));

  return renderStatisticsDoc({
    profiles,
    rules,
    variants,
    results,
    winner,
    blocked,
    defaults,
    options,
    runsPerCell: RUNS_PER_CELL,
  });
}

/**
 * The noise profiles, each fitted on its own and weighted alike: this machine's published runs (docs/findings/*),
 * the fresh rounds of docs/statistics.md's own config (every folder of docs/statistics/, from noise.yml), and each
 * folder given.
 */
function listProfiles(given) {
  const findings = join(ROOT, 'docs/findings');
  const profiles = [
    {
      name: 'findings',
      dirs: readdirSync(findings)
        .map((name) => join(findings, name))
        .filter((dir) => existsSync(join(dir, 'runs.csv')))
        .sort(),
    },
  ];
  // docs/statistics/<profile>/<folder>: one profile per subfolder, named by it (`busy`: recorded while other work
  // loaded the host; `quiet`: with the host to itself), each folder a run of docs/statistics/noise.yml.
  const fresh = join(ROOT, 'docs/statistics');
  for (const name of readdirSync(fresh).sort()) {
    const dir = join(fresh, name);
    const dirs =
      existsSync(dir) && !existsSync(join(dir, 'runs.csv')) && statSync(dir).isDirectory()
        ? readdirSync(dir)
            .sort()
            .map((folder) => join(dir, folder))
            .filter((folder) => existsSync(join(folder, 'runs.csv')))
        : [];
    if (dirs.length) profiles.push({ name, dirs });
  }
  for (const dir of given) profiles.push({ name: relative(process.cwd(), resolve(dir)) || '.', dirs: [resolve(dir)] });
  return profiles;
}

function readNumber(text, option, isValid, expected) {
  const value = Number(text);
  if (text.trim() === '' || !isValid(value))
    throw new LabError('ERR_USAGE', `${option} takes ${expected}, found ${JSON.stringify(text)}`, { hint: USAGE });
  return value;
}

function pct(share) {
  return `${(100 * share).toFixed(1)}%`;
}

if (isEntryPoint(import.meta.url)) runCommand(main);
