// `node-threads-lab plan`: the runs a matrix would make, checked as `run` checks them, and nothing started.
// Loads no Docker code (test/unit/run/run-experiments.test.js).
import { LabError } from '../errors.js';
import { parseCommandLine } from './command-line.js';
import { plan } from '../index.js';
import { formatPlan } from '../plan/format-plan.js';
import { formatRun } from '../plan/plan-runs.js';
import { formatWarning } from '../plan/plan-warnings.js';
import { resolveTyped } from './caller-paths.js';

export const USAGE = `Usage: node-threads-lab plan [--config FILE] [--only NAME] [--seed N] [--resume DIR] [--results DIR]
                             [--verbose] [--json]

Prints, for each experiment of the file, a table of its cells (the axes that vary as columns) with the runs
planned, the most adaptive rounds or a race may add, and the time a run takes; each claim with the metric it
is judged on; the advice's metric; an estimate of the time and where each figure comes from (the same cell in
an earlier results folder, else the capacity model calibrated on the same work there, else the figures shipped
with node-threads-lab, else the benchmarked overhead per run: "at least"); the static check of your own module;
the total; then any warnings (on stderr). Checks the file as a run does (exit 2 with file:line:column), starts
nothing.

  --config FILE   experiments file (default: experiments.yml)
  --only NAME     only this experiment (repeatable, or comma-separated)
  --seed N        seed of the shuffled order (default: random, printed)
  --resume DIR    only the runs DIR/runs.csv does not hold yet
  --results DIR   where the earlier results folders are, for the estimate (default: results/)
  --engine NAME_OR_URL, --slots N  as for run: the CPU checks wait for those engines
  --kubernetes CONTEXT[/NAMESPACE]  as for run: the cells are checked against the node pool when it runs
  --verbose       also every run, one line each, in the order a run takes them (the same for the same seed)
  --json          one JSON document on stdout: { count, seed, estimate, experiments: [{ name, cells, runs, table,
                  claims, advice, loads, slo, estimate }], user_code, warnings }
  -h, --help      this text

Exit status: the table in \`node-threads-lab --help\` (and docs/cli.md), one for every command.`;

const OPTIONS = {
  config: { type: 'string' },
  only: { type: 'string', multiple: true, default: [] },
  seed: { type: 'string' },
  resume: { type: 'string' },
  results: { type: 'string' },
  engine: { type: 'string', multiple: true, default: [] },
  kubernetes: { type: 'string' },
  slots: { type: 'string' },
  json: { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
};

const MEANT = {
  'dry-run': 'plan never starts a container anyway; leave it out',
  plan: 'this is the plan already; leave it out',
};

export async function main(argv, { stdout, stderr, paths }) {
  const { values } = parseCommandLine(argv, { options: OPTIONS, usage: USAGE, meant: MEANT });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const usageError = (message) => new LabError('ERR_USAGE', message, { hint: USAGE });
  if (values.seed !== undefined && !/^\d+$/.test(values.seed))
    throw usageError(`--seed takes a whole number, found "${values.seed}"`);
  if (values.slots !== undefined && !/^[1-9]\d*$/.test(values.slots))
    throw usageError(`--slots takes a whole number from 1, found "${values.slots}"`);
  const options = {
    only: values.only.flatMap((name) => name.split(',')).filter(Boolean),
    seed: values.seed === undefined ? undefined : Number(values.seed),
    resume: resolveTyped(paths, values.resume),
    engines: values.engine,
    kubernetes: values.kubernetes,
    slots: values.slots === undefined ? undefined : Number(values.slots),
    resultsRoot: resolveTyped(paths, values.results),
  };
  return printPlan(resolveTyped(paths, values.config), options, {
    stdout,
    stderr,
    json: values.json,
    verbose: values.verbose,
  });
}

/** `plan`, and `run --plan`: the table (or the JSON document) on stdout, then the warnings on stderr. */
export async function printPlan(config, options, { stdout, stderr, json = false, verbose = false }) {
  const planned = await plan(config, options);
  if (json) stdout.write(`${JSON.stringify(planned, null, 2)}\n`);
  else {
    if (verbose) {
      for (const experiment of planned.experiments) {
        for (const run of experiment.runs) stdout.write(`${formatRun({ ...run, experiment: experiment.name })}\n`);
      }
      stdout.write('\n');
    }
    stdout.write(`${formatPlan(planned).join('\n')}\n`);
  }
  // After the table, where they are read last rather than scrolled away.
  for (const warning of planned.warnings) stderr.write(`${formatWarning(warning)}\n`);
  return 0;
}
