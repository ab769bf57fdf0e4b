// `node-threads-lab plan`: the runs a matrix would make, checked as `run` checks them, and nothing started.
// Loads no Docker code (test/unit/run-experiments.test.js).
import { LabError } from '../errors.js';
import { parseCommandLine } from '../command-line.js';
import { plan } from '../index.js';
import { formatRun } from '../plan/plan-runs.js';
import { formatWarning } from '../plan/plan-warnings.js';
import { resolveTyped } from './caller-paths.js';

export const USAGE = `Usage: node-threads-lab plan [--config FILE] [--only NAME] [--seed N] [--resume DIR] [--json]

Prints every run the experiments file expands to, in the order a run would take them, then "<N> runs";
warnings go to stderr. Checks the file as a run does (exit 2 with file:line:column), starts nothing.

  --config FILE   experiments file (default: experiments.yml)
  --only NAME     only this experiment (repeatable, or comma-separated)
  --seed N        seed of the shuffled order (default: random)
  --resume DIR    only the runs DIR/runs.csv does not hold yet
  --engine NAME_OR_URL, --slots N  as for run: the CPU checks wait for those engines
  --json          one JSON document on stdout: { count, seed, experiments: [{ name, cells, runs }], warnings }
  -h, --help      this text

Exit status: the table in \`node-threads-lab --help\` (and docs/cli.md), one for every command.`;

const OPTIONS = {
  config: { type: 'string' },
  only: { type: 'string', multiple: true, default: [] },
  seed: { type: 'string' },
  resume: { type: 'string' },
  engine: { type: 'string', multiple: true, default: [] },
  slots: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
};

const MEANT = { 'dry-run': 'plan never starts a container anyway; leave it out', plan: 'this is the plan already; leave it out' };

export async function main(argv, { stdout, stderr, paths }) {
  const { values } = parseCommandLine(argv, { options: OPTIONS, usage: USAGE, meant: MEANT });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const usageError = (message) => new LabError('ERR_USAGE', message, { hint: USAGE });
  if (values.seed !== undefined && !/^\d+$/.test(values.seed)) throw usageError(`--seed takes a whole number, found "${values.seed}"`);
  if (values.slots !== undefined && !/^[1-9]\d*$/.test(values.slots)) throw usageError(`--slots takes a whole number from 1, found "${values.slots}"`);
  const options = {
    only: values.only.flatMap((name) => name.split(',')).filter(Boolean),
    seed: values.seed === undefined ? undefined : Number(values.seed),
    resume: resolveTyped(paths, values.resume),
    engines: values.engine,
    slots: values.slots === undefined ? undefined : Number(values.slots),
  };
  return printPlan(resolveTyped(paths, values.config), options, { stdout, stderr, json: values.json });
}

/** `plan`, and `run --plan`: the runs on stdout (or the JSON document), warnings on stderr. */
export async function printPlan(config, options, { stdout, stderr, json = false }) {
  const planned = await plan(config, options);
  for (const warning of planned.warnings) stderr.write(`${formatWarning(warning)}\n`);
  if (json) {
    stdout.write(`${JSON.stringify(planned, null, 2)}\n`);
    return 0;
  }
  for (const experiment of planned.experiments) {
    for (const run of experiment.runs) stdout.write(`${formatRun({ ...run, experiment: experiment.name })}\n`);
  }
  stdout.write(`${planned.count} runs${planned.most_reruns > 0 ? `, and up to ${planned.most_reruns} re-runs of disturbed runs (\`max_reruns\` a cell)` : ''}\n`);
  return 0;
}
