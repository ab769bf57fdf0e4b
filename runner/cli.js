#!/usr/bin/env node
// argv → run. The only module that prints to the terminal for the person or sets the exit status:
// 0 all runs ok, 1 finished with failed runs (their rows are in the CSV), 2 invalid config or
// preflight failure (nothing run), 130/143 stopped by SIGINT/SIGTERM.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LabError } from './errors.js';
import { isEntryPoint, parseCommandLine, runCommand } from './command.js';
import { loadConfig } from './config/load.js';
import { planExperiments, describeRun } from './plan/plan-runs.js';
import { DEFAULT_NODE_MAJOR } from './plan/image-choice.js';
import { findPlanWarnings, formatWarning } from './plan/plan-warnings.js';
import { defaultOutputDir, prepareOutputDir, writeJson } from './report/output-files.js';
import { buildRunInfo, describeProject } from './run-info.js';
import { planColumns } from './collect/to-rows.js';
import { newSeed } from './plan/run-order.js';

const PROJECT_DIR = fileURLToPath(new URL('..', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const USAGE = `Usage: npm run matrix -- [options]
       node-threads-lab [options]       (installed: npx, npm link, npm install -g)

  --config FILE   experiments file (default: experiments.yml)
  --out DIR       results folder (default: results/<experiment>-<UTC timestamp> in the
                  current folder; with several experiments: DIR/<experiment>)
  --only NAME     run only this experiment (repeatable, or comma-separated)
  --plan          print the expanded runs and their count; touch no container
  --seed N        seed of the shuffled run order (default: random; recorded in run.json)
  --resume DIR    run only the runs DIR/runs.csv does not hold yet, appending to it
                  (with the config and seed recorded in DIR/run.json)
  --fail-fast     stop at the first run that is not ok
  -h, --help      this text
  -v, --version   the version of node-threads-lab`;

const OPTIONS = {
  config: { type: 'string' },
  seed: { type: 'string' },
  resume: { type: 'string' },
  out: { type: 'string' },
  only: { type: 'string', multiple: true, default: [] },
  plan: { type: 'boolean', default: false },
  'fail-fast': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
};

const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 };

export async function main(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const args = parseArguments(argv);
  if (args.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.version) {
    stdout.write(`${PACKAGE.name} ${PACKAGE.version}\n`);
    return 0;
  }
  // Asked before the config is read, so the engine's answer arrives while the config is checked. Not for
  // --plan (it must not need Docker), and without setting up an engine: a bad config must change nothing.
  const engineAnswer = args.plan ? undefined : import('./docker/engine.js').then(({ connectEngine }) => connectEngine());
  engineAnswer?.catch(() => {});
  // Only a resume reads CSVs back.
  const { checkResumable, readResumeState } = args.resume ? await import('./resume.js') : {};
  const resumed = args.resume ? readResumeState(resolve(args.resume)) : null;
  const config = await loadConfig(resolve(args.config ?? resumed?.info.config_file ?? 'experiments.yml'));
  const seed = resumed?.info.seed ?? args.seed ?? newSeed();
  const only = resumed ? [resumed.info.experiment] : args.only;
  const plans = planExperiments(config, { only, defaultNodeMajor: DEFAULT_NODE_MAJOR, seed });
  if (resumed) for (const plan of plans) checkResumable(plan, resumed, planColumns(plan));
  for (const warning of plans.flatMap((plan) => findPlanWarnings(plan, config))) stderr.write(`${formatWarning(warning)}\n`);
  if (args.plan) {
    for (const plan of plans) for (const run of plan.runs) if (!resumed?.done.has(run.runKey)) stdout.write(`${describeRun(run)}\n`);
    stdout.write(`${plans.reduce((count, plan) => count + plan.runs.filter((run) => !resumed?.done.has(run.runKey)).length, 0)} runs\n`);
    return 0;
  }
  const startedAt = new Date();
  const jobs = plans.map((plan) => {
    if (!resumed) return { plan, outDir: prepareOutputDir(chooseOutputDir(args.out, plan, plans.length, startedAt)), done: new Set(), previousRows: [] };
    return { plan, outDir: prepareOutputDir(resolve(args.resume)), done: resumed.done, previousRows: resumed.rows, info: resumed.info };
  });
  return runAll({ args, argv, config, jobs, seed, stderr, engineAnswer });
}

async function runAll({ args, argv, config, jobs, seed, stderr, engineAnswer }) {
  // Loaded here, not at the top: --plan and config errors must not need Docker at all.
  const { connectEngine } = await import('./docker/engine.js');
  const { ensureImages } = await import('./docker/images.js');
  const { removeOrphanContainers, removeOwnContainers } = await import('./docker/cleanup.js');
  const { createDockerExecutor } = await import('./docker/executor.js');
  const { runMatrix } = await import('./run-matrix.js');
  const { attachProgress } = await import('./progress.js');

  // Independent steps go at once: start-up to the first container is what every matrix and test pays.
  const projectDescribed = describeProject(PROJECT_DIR);
  // No answer yet: now it may set up a local engine (root on Debian), or say how to get one.
  const engine = await engineAnswer.catch(() => connectEngine({ setup: true }));
  const requests = jobs.flatMap(({ plan }) => plan.cells.map(({ nodeMajor, imageChoice }) => ({ major: nodeMajor, choice: imageChoice })));
  const [orphans, images, project] = await Promise.all([
    removeOrphanContainers(engine.docker),
    ensureImages(engine.docker, { requests, onProgress: (line) => stderr.write(`${line}\n`) }),
    projectDescribed,
  ]);
  if (orphans.removed.length > 0) stderr.write(`Removed ${orphans.removed.length} container(s) left behind by an earlier run that was killed: ${orphans.removed.map((o) => o.name ?? o.id.slice(0, 12)).join(', ')}\n`);
  if (orphans.leftAlone > 0) stderr.write(`Note: ${orphans.leftAlone} container(s) of another runner still at work share this engine; timings may be disturbed.\n`);
  const executor = createDockerExecutor(engine.docker, images);

  const stopper = listenForStop(stderr, () => removeOwnContainers(engine.docker));
  let anyFailed = false;
  try {
    for (const { plan, outDir, done, previousRows, info: recorded } of jobs) {
      const fresh = buildRunInfo({ plan, config, engine, images, project, argv, seed, startedAt: new Date() });
      // A resumed folder keeps its first start time and config; each resume is noted beside them.
      const info = recorded ? { ...recorded, images: fresh.images, resumed: [...(recorded.resumed ?? []), { at: fresh.started_at, argv, project }] } : fresh;
      writeJson(outDir, 'run.json', info);
      stderr.write(`${plan.experiment.name}: ${plan.runs.length - done.size} runs → ${outDir}\n`);
      const events = new EventEmitter();
      const progress = await attachProgress(events, { stream: stderr, label: plan.experiment.name });
      let summary;
      try {
        summary = await runMatrix({ plan, executor, outDir, done, previousRows, signal: stopper.signal, failFast: args['fail-fast'], events });
      } catch (error) {
        if (error instanceof LabError) error.hint = `${error.hint ?? ''}\n  resume with: npm run matrix -- --resume ${outDir}`.trim();
        throw error;
      } finally {
        progress.stop();
      }
      writeJson(outDir, 'run.json', { ...info, finished_at: new Date().toISOString(), summary });
      await writeReportsSafely(outDir, stderr);
      stderr.write(`${plan.experiment.name}: ${summary.ok} ok, ${summary.failed} not ok, of ${summary.total} → ${join(outDir, 'runs.csv')}\n`);
      anyFailed ||= summary.failed > 0;
      if (summary.stoppedBy === 'abort') {
        stderr.write(`Stopped by ${stopper.signalName}; every row written is whole; ${summary.total - summary.done} run(s) not done.\nResume with: npm run matrix -- --resume ${outDir}\n`);
        return SIGNAL_EXIT[stopper.signalName] ?? 130;
      }
      if (summary.stoppedBy === 'fail-fast') return 1;
    }
  } finally {
    stopper.dispose();
  }
  return anyFailed ? 1 : 0;
}

// The rows are the measurement; a report that cannot be drawn must not turn a finished matrix into
// an error. Say so and how to retry.
// Loaded when the first matrix is done: the report modules are not on the way to the first container.
async function writeReportsSafely(outDir, stderr) {
  try {
    const { writeReports } = await import('./report/write-reports.js');
    const { files } = writeReports(outDir);
    stderr.write(`reports: ${files.map((file) => file.slice(outDir.length + 1)).join(', ')}\n`);
  } catch (error) {
    stderr.write(`Could not write the reports (${error.message}); the CSVs are complete. Retry with: npm run report -- ${outDir}\n`);
  }
}

function chooseOutputDir(out, plan, count, startedAt) {
  if (out && count === 1) return resolve(out);
  if (out) return resolve(out, plan.experiment.name);
  // The current folder's results/: the project's own when run by `npm run` (npm starts scripts in
  // the package folder), the folder the person is in when run as a bin (npx, npm link, global).
  return defaultOutputDir(resolve('results'), plan.experiment.name, startedAt);
}

// First signal: start no new run, stop and remove the current container, write what is whole.
// Second signal: stop waiting; remove the project's containers and leave at once.
function listenForStop(stderr, removeContainers) {
  const controller = new AbortController();
  const state = { signal: controller.signal, signalName: null };
  const onSignal = async (name) => {
    if (state.signalName) {
      stderr.write(`\n${name} again: removing containers and exiting now.\n`);
      await removeContainers().catch(() => {});
      process.exit(SIGNAL_EXIT[name]);
    }
    state.signalName = name;
    stderr.write(`\n${name}: stopping the run in progress and removing its container (press Ctrl-C again to cut the wait short)…\n`);
    controller.abort();
  };
  const handlers = Object.keys(SIGNAL_EXIT).map((name) => [name, () => onSignal(name)]);
  for (const [name, handler] of handlers) process.on(name, handler);
  state.dispose = () => handlers.forEach(([name, handler]) => process.off(name, handler));
  return state;
}

function parseArguments(argv) {
  const { values } = parseCommandLine(argv, { options: OPTIONS, usage: USAGE });
  const usageError = (message) => new LabError('ERR_USAGE', message, { hint: USAGE });
  if (values.seed !== undefined && !/^\d+$/.test(values.seed)) throw usageError(`--seed takes a whole number, found "${values.seed}"`);
  if (values.resume && (values.out || values.only.length > 0)) throw usageError('--resume writes to the folder it resumes and runs its experiment: drop --out and --only');
  return { ...values, seed: values.seed === undefined ? undefined : Number(values.seed), only: values.only.flatMap((name) => name.split(',')).filter(Boolean) };
}

if (isEntryPoint(import.meta.url)) runCommand(main);
