#!/usr/bin/env node
// argv → runExperiments (run-experiments.js). Only parses arguments, prints and sets the exit status:
// 0 all runs ok, 1 finished with failed runs (their rows are in the CSV), 2 invalid config or
// preflight failure (nothing run), 130/143 stopped by SIGINT/SIGTERM.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LabError } from './errors.js';
import { isEntryPoint, parseCommandLine, runCommand } from './command-line.js';
import { loadConfig } from './config/load-config.js';
import { DEFAULT_NODE_MAJOR } from './domain/axes.js';
import { planExperiments, formatRun } from './plan/plan-runs.js';
import { countMostReruns } from './plan/reruns.js';
import { findPlanWarnings, formatWarning } from './plan/plan-warnings.js';
import { newSeed } from './plan/run-order.js';
import { planColumns } from './domain/columns.js';
import { readProject } from './results/run-info.js';
import { printRunEvents } from './progress.js';

const PROJECT_DIR = fileURLToPath(new URL('../', import.meta.url));
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
  --keep-disturbed  count disturbed runs (interference above \`disturbed_above\`) in the statistics
                  and re-run none (default: leave them out, re-run up to \`max_reruns\` a cell)
  --engine NAME_OR_URL  run on this Docker engine: a Docker CLI context name or a URL (unix://,
                  tcp://, ssh://user@host); repeatable, the runs are spread over all of them
                  (default: the config's \`engines:\`, else DOCKER_HOST or the local socket)
  --slots N       cut each engine's CPUs into N disjoint cpusets and run N runs at once, one per
                  slot; a cell's cpuset counts from its slot's first CPU (default: 1, one at a time)
  --allow-mixed-engines  spread cells over engines that differ in CPU model or count
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
  'keep-disturbed': { type: 'boolean', default: false },
  engine: { type: 'string', multiple: true, default: [] },
  slots: { type: 'string' },
  'allow-mixed-engines': { type: 'boolean', default: false },
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
  // Only a resume reads CSVs back.
  const { checkResumable, readResumeState } = args.resume ? await import('./results/resume.js') : {};
  const resumed = args.resume ? readResumeState(resolve(args.resume)) : null;
  if (resumed && args['keep-disturbed'] && resumed.info.keep_disturbed !== true) {
    throw new LabError('ERR_USAGE', `--keep-disturbed: ${resumed.dir} was started without it, and a resume keeps the choice its folder was started with`, {
      hint: `drop --keep-disturbed; to count the disturbed runs afterwards: npm run report -- ${resumed.dir} --keep-disturbed`,
    });
  }
  // A resume goes back to the engines and slots it started with, unless told otherwise.
  args.engine = args.engine.length > 0 ? args.engine : resumed?.info.engines?.map((engine) => engine.name) ?? [];
  args.slots ??= resumed?.info.slots ?? 1;
  // Engines named here are other machines: their CPUs are checked once they are reached.
  const elsewhere = args.engine.length > 0 || args.slots > 1;
  const config = await loadConfig(resolve(args.config ?? resumed?.info.config_file ?? 'experiments.yml'), elsewhere ? { host: null } : {});
  const seed = resumed?.info.seed ?? args.seed ?? newSeed();
  const only = resumed ? [resumed.info.experiment] : args.only;
  const keepDisturbed = args['keep-disturbed'] || resumed?.info.keep_disturbed === true;
  const plans = planExperiments(config, { only, defaultNodeMajor: DEFAULT_NODE_MAJOR, seed, keepDisturbed });
  if (resumed) {
    for (const plan of plans) {
      // A resumed folder's user_<key> columns are those of its header; the preflight does not change them.
      plan.userColumns = (resumed.header ?? []).filter((column) => column.startsWith('user_'));
      checkResumable(plan, resumed, planColumns(plan));
    }
  }
  for (const warning of plans.flatMap((plan) => findPlanWarnings(plan, config))) stderr.write(`${formatWarning(warning)}\n`);
  if (args.plan) {
    const pending = plans.flatMap((plan) => plan.runs.filter((run) => !resumed?.done.has(run.runKey)));
    for (const run of pending) stdout.write(`${formatRun(run)}\n`);
    stdout.write(`${pending.length} runs${formatMostReruns(plans)}\n`);
    return 0;
  }
  const { prepareJobs, runExperiments } = await import('./run-experiments.js');
  // The current folder's results/: the project's own when run by `npm run` (npm starts scripts in
  // the package folder), the folder the person is in when run as a bin (npx, npm link, global).
  const jobs = prepareJobs({ plans, out: args.out, resultsRoot: resolve('results'), resumed });
  return runWithDocker({ args, argv, config, jobs, seed, stderr, runExperiments });
}

async function runWithDocker({ args, argv, config, jobs, seed, stderr, runExperiments }) {
  // Loaded here, not at the top: --plan and config errors must not need Docker at all.
  const { openDockerSession, removeOwnContainersOn } = await import('./docker/session.js');
  const events = new EventEmitter();
  const display = printRunEvents(events, { stream: stderr });
  // At once with the Docker steps: start-up to the first container is what every matrix and test pays.
  const projectRead = readProject(PROJECT_DIR);
  const plans = jobs.map(({ plan }) => plan);
  // Engines join `connected` as they are reached, so a Ctrl-C while they are prepared (the CPU probe is a
  // container) can remove this runner's containers on each of them before leaving.
  const connected = [];
  let preparing = true;
  const stopper = listenForStop(stderr, () => removeOwnContainersOn(connected), { isPreparing: () => preparing });
  const session = await openDockerSession({ plans, config, engineNames: args.engine, slots: args.slots, allowMixed: args['allow-mixed-engines'], events, connected });
  preparing = false;
  const project = await projectRead;

  try {
    const { engine, engines, images, lanes } = session;
    const outcome = await runExperiments({ jobs, lanes, context: { config, engine, engines, slots: args.slots, images, project, argv, seed }, signal: stopper.signal, failFast: args['fail-fast'], events });
    if (outcome.stoppedBy === 'abort') {
      const { outDir, summary } = outcome.experiments.at(-1);
      stderr.write(`Stopped by ${stopper.signalName}; every row written is whole; ${summary.total - summary.done} run(s) not done.\nResume with: npm run matrix -- --resume ${outDir}\n`);
      return SIGNAL_EXIT[stopper.signalName] ?? 130;
    }
    if (outcome.stoppedBy === 'engine-lost') {
      const { outDir, summary } = outcome.experiments.at(-1);
      throw engineLostError(outcome.lostEngines, `${summary.not_run} run(s) not done: no engine left that may take them`, outDir);
    }
    if (outcome.lostEngines.size > 0) throw engineLostError(outcome.lostEngines, 'every run finished on the other engines');
    return outcome.stoppedBy === 'fail-fast' || outcome.anyFailed ? 1 : 0;
  } finally {
    display.stop();
    stopper.dispose();
    session.close();
  }
}

// Exit 1, naming the engines that went away; with runs left, the way to finish them.
function engineLostError(lostEngines, outcome, outDir) {
  const names = [...lostEngines.keys()].join(', ');
  return new LabError('ERR_DOCKER_LOST', `lost engine ${names} during the matrix: ${[...lostEngines.values()].map((error) => error.message).join('; ')}; ${outcome}`, {
    hint: outDir ? `start ${names} again, then: npm run matrix -- --resume ${outDir}` : `every row is in runs.csv; check ${names} before its next matrix`,
  });
}

// First signal: start no new run, stop and remove the current container, write what is whole.
// Second signal: stop waiting; remove the project's containers and leave at once.
// Before the first run (engines being prepared): nothing to keep; remove this runner's containers and leave.
function listenForStop(stderr, removeContainers, { isPreparing = () => false } = {}) {
  const controller = new AbortController();
  const state = { signal: controller.signal, signalName: null };
  const onSignal = async (name) => {
    if (state.signalName || isPreparing()) {
      stderr.write(state.signalName ? `\n${name} again: removing containers and exiting now.\n` : `\n${name} while preparing the engines: no run was started; removing this runner's containers and exiting.\n`);
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

// Re-runs of disturbed runs come on top of the plan: the count line says how many at most (a resumed folder may
// have used some). One line, the last, as scripts and tests read it.
function formatMostReruns(plans) {
  const most = plans.reduce((sum, plan) => sum + countMostReruns(plan), 0);
  return most > 0 ? `, and up to ${most} re-runs of disturbed runs (\`max_reruns\` a cell)` : '';
}

function parseArguments(argv) {
  const { values } = parseCommandLine(argv, { options: OPTIONS, usage: USAGE });
  const usageError = (message) => new LabError('ERR_USAGE', message, { hint: USAGE });
  if (values.seed !== undefined && !/^\d+$/.test(values.seed)) throw usageError(`--seed takes a whole number, found "${values.seed}"`);
  if (values.resume && (values.out || values.only.length > 0)) throw usageError('--resume writes to the folder it resumes and runs its experiment: drop --out and --only');
  if (values.slots !== undefined && !/^[1-9]\d*$/.test(values.slots)) throw usageError(`--slots takes a whole number from 1, found "${values.slots}"`);
  return { ...values, slots: values.slots === undefined ? undefined : Number(values.slots), seed: values.seed === undefined ? undefined : Number(values.seed), only: values.only.flatMap((name) => name.split(',')).filter(Boolean) };
}

if (isEntryPoint(import.meta.url)) runCommand(main);
