// `node-threads-lab run`: argv → run() (api/run.js), its progress printed on stderr and its results on stdout
// (progress.js; with --json the results document), the outcome turned into the exit status: 0 all runs ok, 1 finished
// with failed runs (their rows are in the CSV) or an engine lost, 2 invalid config or preflight failure (nothing run),
// 130/143 stopped by SIGINT/SIGTERM.
import { LabError } from '../errors.js';
import { BACKEND_LOST } from '../backend/contract.js';
import { parseCommandLine } from './command-line.js';
import { run } from '../index.js';
import { formatWarning } from '../plan/plan-warnings.js';
import { printRunEvents, printRunResults } from './progress.js';
import { formatCommand, resolveTyped } from './caller-paths.js';
import { collectClaimsStatuses, gateRun, parseFailOn } from './fail-on.js';
import { printPlan } from './plan.js';
import { listenForStop, SIGNAL_EXIT } from './stop-signals.js';

export const USAGE = `Usage: node-threads-lab run [options]
       npm run matrix -- [options]      (in a checkout of node-threads-lab)

Runs every experiment of the experiments file, one locked-down container per run, and writes a results
folder per experiment: runs.csv, tasks.csv, run.json, the reports and results.json. The results (each
experiment's count of runs and folder, its Answers and Advice) go to stdout; progress goes to stderr.

  --config FILE   experiments file (default: experiments.yml)
  --out DIR       results folder (default: results/<experiment>-<UTC timestamp> in the current folder;
                  with several experiments: DIR/<experiment>)
  --only NAME     run only this experiment (repeatable, or comma-separated)
  --plan          print the runs and their count, start nothing: the same as \`node-threads-lab plan\`
  --seed N        seed of the shuffled run order (default: random; recorded in run.json)
  --resume DIR    run only the runs DIR/runs.csv does not hold yet, appending to it
                  (with the config and seed recorded in DIR/run.json)
  --fail-fast     stop at the first run that is not ok
  --keep-disturbed  count disturbed runs (interference above \`disturbed_above\`) in the statistics
                  and re-run none (default: leave them out, re-run up to \`max_reruns\` a cell)
  --fail-on WHAT  the claims as a gate (CI): refuted = exit 1 when a claim is refuted; inconclusive = also exit 3
                  when some are inconclusive and none refuted (the statuses of \`claims\`); runs not ok stay exit 1
  --engine NAME_OR_URL  run on this Docker engine: a Docker CLI context name or a URL (unix://,
                  tcp://, ssh://user@host); repeatable, the runs are spread over all of them
                  (default: the config's \`engines:\`, else DOCKER_HOST or the local socket)
  --slots N       cut each engine's CPUs into N disjoint cpusets and run N runs at once, one per
                  slot; a cell's cpuset counts from its slot's first CPU (default: 1, one at a time)
  --allow-mixed-engines  spread cells over engines that differ in CPU model or count
  --kubernetes CONTEXT[/NAMESPACE]  run on this kubeconfig context instead (one Job per run; KUBECONFIG or
                  ~/.kube/config; over the config's \`kubernetes:\`; docs/kubernetes.md)
  --json          the results as one JSON document on stdout instead of text: { format, tool, seed,
                  stopped_by, experiments: [{ name, dir, summary, results }] }, results being what the
                  folder's results.json holds (docs/cli.md, JSON output)
  -q, --quiet     no progress on stderr (warnings and errors still): only the results
  -h, --help      this text
  -v, --version   the version of node-threads-lab

Exit status: the table in \`node-threads-lab --help\` (and docs/cli.md), one for every command.`;

const OPTIONS = {
  config: { type: 'string' },
  seed: { type: 'string' },
  resume: { type: 'string' },
  out: { type: 'string' },
  only: { type: 'string', multiple: true, default: [] },
  plan: { type: 'boolean', default: false },
  'fail-fast': { type: 'boolean', default: false },
  'keep-disturbed': { type: 'boolean', default: false },
  'fail-on': { type: 'string' },
  engine: { type: 'string', multiple: true, default: [] },
  kubernetes: { type: 'string' },
  slots: { type: 'string' },
  'allow-mixed-engines': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  quiet: { type: 'boolean', short: 'q', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
};

// Options of other tools, and what to write here instead.
const MEANT = {
  'dry-run': 'did you mean `node-threads-lab plan`, or --plan?',
  silent: 'did you mean --quiet?',
};

/** What `run --json` prints: each experiment's folder, its summary (run.json's) and its results.json document. */
export const RUN_DOCUMENT_FORMAT = 1;

export function buildRunDocument(outcome) {
  return {
    format: RUN_DOCUMENT_FORMAT,
    tool: 'node-threads-lab',
    seed: outcome.seed,
    stopped_by: outcome.stoppedBy,
    experiments: outcome.experiments.map(({ name, outDir, summary, results }) => ({
      name,
      dir: outDir,
      summary,
      results: results ?? null,
    })),
  };
}

/** `runMatrix`: the API's run() (a test gives one over the fake backend, test/support/fake-run.js). */
export async function main(argv, { stdout, stderr, paths, version, runMatrix = run }) {
  const args = parseRunArguments(argv);
  if (args.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.version) {
    stdout.write(`${version}\n`);
    return 0;
  }
  const config = resolveTyped(paths, args.config);
  const options = {
    only: args.only,
    seed: args.seed,
    resume: resolveTyped(paths, args.resume),
    engines: args.engine,
    kubernetes: args.kubernetes,
    slots: args.slots,
    keepDisturbed: args['keep-disturbed'],
  };
  if (args.plan) return printPlan(config, options, { stdout, stderr, json: args.json });
  const tracker = runMatrix(config, {
    ...options,
    out: resolveTyped(paths, args.out),
    failFast: args['fail-fast'],
    allowMixedEngines: args['allow-mixed-engines'],
    argv,
  });
  tracker.on('plan', ({ warnings }) => warnings.forEach((warning) => stderr.write(`${formatWarning(warning)}\n`)));
  const claimsStatuses = collectClaimsStatuses(tracker);
  const display = printRunEvents(tracker, { stream: stderr, quiet: args.quiet, closing: args.json && !args.quiet });
  if (!args.json) printRunResults(tracker, { stream: stdout });
  const stopper = listenForStop(stderr, tracker);
  try {
    const outcome = await tracker;
    // Whatever stopped the matrix, the folders it finished are results.
    if (args.json) stdout.write(`${JSON.stringify(buildRunDocument(outcome), null, 2)}\n`);
    const resumeHint = (outDir) => formatCommand(paths, 'run', `--resume ${outDir}`);
    if (outcome.stoppedBy === 'abort') {
      const { outDir, summary } = outcome.experiments.at(-1);
      stderr.write(
        `Stopped by ${stopper.signalName}; every row written is whole; ${summary.total - summary.done} run(s) not done.\nResume with: ${resumeHint(outDir)}\n`,
      );
      return SIGNAL_EXIT[stopper.signalName] ?? 130;
    }
    if (outcome.stoppedBy === 'engine-lost') {
      const { outDir, summary } = outcome.experiments.at(-1);
      throw engineLostError(
        outcome.lostEngines,
        `${summary.not_run} run(s) not done: no engine left that may take them`,
        resumeHint(outDir),
      );
    }
    if (outcome.lostEngines.size > 0)
      throw engineLostError(outcome.lostEngines, 'every run finished on the other engines');
    const runsStatus = outcome.stoppedBy === 'fail-fast' || outcome.anyFailed ? 1 : 0;
    if (!args['fail-on']) return runsStatus;
    const gate = gateRun(outcome.experiments, claimsStatuses, args['fail-on']);
    for (const { outDir } of gate.unjudged)
      stderr.write(
        `--fail-on ${args['fail-on']}: the claims of ${outDir} were not judged (its reports failed); judge them with: ${formatCommand(paths, 'claims', outDir)}\n`,
      );
    if (gate.words) stderr.write(`--fail-on ${args['fail-on']}: ${gate.words}: exit ${gate.status}\n`);
    return runsStatus || gate.status;
  } finally {
    display.stop();
    stopper.dispose();
  }
}

// Exit 1, naming the engines that went away; with runs left, the way to finish them.
function engineLostError(lostEngines, outcome, resumeCommand) {
  const names = [...lostEngines.keys()].join(', ');
  return new LabError(
    BACKEND_LOST,
    `lost engine ${names} during the matrix: ${[...lostEngines.values()].map((error) => error.message).join('; ')}; ${outcome}`,
    {
      hint: resumeCommand
        ? `start ${names} again, then: ${resumeCommand}`
        : `every row is in runs.csv; check ${names} before its next matrix`,
    },
  );
}

function parseRunArguments(argv) {
  const { values } = parseCommandLine(argv, { options: OPTIONS, usage: USAGE, meant: MEANT });
  const usageError = (message) => new LabError('ERR_USAGE', message, { hint: USAGE });
  if (values.seed !== undefined && !/^\d+$/.test(values.seed))
    throw usageError(`--seed takes a whole number, found "${values.seed}"`);
  if (values.resume && (values.out || values.only.length > 0))
    throw usageError('--resume writes to the folder it resumes and runs its experiment: drop --out and --only');
  if (values.slots !== undefined && !/^[1-9]\d*$/.test(values.slots))
    throw usageError(`--slots takes a whole number from 1, found "${values.slots}"`);
  parseFailOn(values['fail-on'], USAGE);
  return {
    ...values,
    slots: values.slots === undefined ? undefined : Number(values.slots),
    seed: values.seed === undefined ? undefined : Number(values.seed),
    only: values.only.flatMap((name) => name.split(',')).filter(Boolean),
  };
}
