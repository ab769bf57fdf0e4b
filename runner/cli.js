#!/usr/bin/env node
// argv → run. The only module that prints to the terminal for the person or sets the exit status:
// 0 all runs ok, 1 finished with failed runs (their rows are in the CSV), 2 invalid config or
// preflight failure (nothing run), 130/143 stopped by SIGINT/SIGTERM.
import { EventEmitter } from 'node:events';
import { resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LabError } from './errors.js';
import { parseCommandLine, runCommand } from './command.js';
import { loadConfig } from './config/load.js';
import { planExperiments, describeRun } from './plan/plan-runs.js';
import { defaultOutputDir, prepareOutputDir, writeJson } from './report/output-files.js';
import { attachProgress } from './progress.js';
import { runMatrix } from './run-matrix.js';
import { buildRunInfo, describeProject } from './run-info.js';
import { checkResumable, readResumeState } from './resume.js';
import { planColumns } from './collect/to-rows.js';
import { newSeed } from './plan/run-order.js';
import { writeReports } from './report/write-reports.js';

const PROJECT_DIR = fileURLToPath(new URL('..', import.meta.url));

const USAGE = `Usage: npm run matrix -- [options]

  --config FILE   experiments file (default: experiments.yml)
  --out DIR       results folder (default: results/<experiment>-<UTC timestamp>;
                  with several experiments: DIR/<experiment>)
  --only NAME     run only this experiment (repeatable, or comma-separated)
  --plan          print the expanded runs and their count; touch no container
  --seed N        seed of the shuffled run order (default: random; recorded in run.json)
  --resume DIR    run only the runs DIR/runs.csv does not hold yet, appending to it
                  (with the config and seed recorded in DIR/run.json)
  --fail-fast     stop at the first run that is not ok
  -h, --help      this text`;

const OPTIONS = {
  config: { type: 'string' },
  seed: { type: 'string' },
  resume: { type: 'string' },
  out: { type: 'string' },
  only: { type: 'string', multiple: true, default: [] },
  plan: { type: 'boolean', default: false },
  'fail-fast': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
};

const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 };

export async function main(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const args = parseArguments(argv);
  if (args.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { DEFAULT_NODE_MAJOR } = await import('./docker/images.js');
  const resumed = args.resume ? readResumeState(resolve(args.resume)) : null;
  const config = await loadConfig(resolve(args.config ?? resumed?.info.config_file ?? 'experiments.yml'));
  const seed = resumed?.info.seed ?? args.seed ?? newSeed();
  const only = resumed ? [resumed.info.experiment] : args.only;
  const plans = planExperiments(config, { only, defaultNodeMajor: DEFAULT_NODE_MAJOR, seed });
  if (resumed) {
    for (const plan of plans) {
      // A resumed folder's user_<key> columns are those of its header; the preflight does not change them.
      plan.userColumns = (resumed.header ?? []).filter((column) => column.startsWith('user_'));
      checkResumable(plan, resumed, planColumns(plan));
    }
  }
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
  return runAll({ args, argv, config, jobs, seed, stderr });
}

async function runAll({ args, argv, config, jobs, seed, stderr }) {
  // Loaded here, not at the top: --plan and config errors must not need Docker at all.
  const { connectEngine } = await import('./docker/engine.js');
  const { ensureImages } = await import('./docker/images.js');
  const { removeOrphanContainers, removeOwnContainers } = await import('./docker/cleanup.js');
  const { createDockerExecutor } = await import('./docker/executor.js');
  const { preflightUserCode } = await import('./docker/preflight.js');

  const engine = await connectEngine({ setup: true });
  const orphans = await removeOrphanContainers(engine.docker);
  if (orphans.removed.length > 0) stderr.write(`Removed ${orphans.removed.length} container(s) left behind by an earlier run that was killed: ${orphans.removed.map((o) => o.name ?? o.id.slice(0, 12)).join(', ')}\n`);
  if (orphans.leftAlone > 0) stderr.write(`Note: ${orphans.leftAlone} container(s) of another runner still at work share this engine; timings may be disturbed.\n`);
  const nodeMajors = [...new Set(jobs.flatMap(({ plan }) => plan.cells.map((cell) => cell.nodeMajor)))];
  const images = await ensureImages(engine.docker, { nodeMajors, onProgress: (line) => stderr.write(`${line}\n`) });
  await preflightUserCode(engine.docker, { plans: jobs.map((job) => job.plan), images, config, onProgress: (line) => stderr.write(`${line}\n`) });
  const executor = createDockerExecutor(engine.docker, images);
  const project = await describeProject(PROJECT_DIR);

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
      const progress = attachProgress(events, { stream: stderr, label: plan.experiment.name });
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
      writeReportsSafely(outDir, stderr);
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
function writeReportsSafely(outDir, stderr) {
  try {
    const { files } = writeReports(outDir);
    stderr.write(`reports: ${files.map((file) => file.slice(outDir.length + 1)).join(', ')}\n`);
  } catch (error) {
    stderr.write(`Could not write the reports (${error.message}); the CSVs are complete. Retry with: npm run report -- ${outDir}\n`);
  }
}

function chooseOutputDir(out, plan, count, startedAt) {
  if (out && count === 1) return resolve(out);
  if (out) return resolve(out, plan.experiment.name);
  return defaultOutputDir(join(PROJECT_DIR, 'results'), plan.experiment.name, startedAt);
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

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) runCommand(main);
