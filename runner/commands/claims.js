// `node-threads-lab claims DIR`: the verdicts of a results folder, judged again from its runs.csv and run.json (or
// against the claims of an experiments file written after the run). Exit status: 0 every claim holds, 1 a claim
// is refuted, 3 some are inconclusive and none refuted (0 with --fail-on refuted), 2 bad usage or folder.
import { parseCommandLine } from './command-line.js';
import { judge } from '../index.js';
import { formatAnswersText } from '../report/answers.js';
import { resolveFolders, resolveTyped } from './caller-paths.js';
import { gateClaims, parseFailOn } from './fail-on.js';

export const USAGE = `Usage: node-threads-lab claims [DIR] [--config FILE] [--steps] [--fail-on refuted|inconclusive] [--json] [--keep-disturbed]
       npm run claims -- [DIR]            (in a checkout of node-threads-lab)

  DIR            a results folder written by \`node-threads-lab run\` (default: the newest under results/, named
                 on stderr)
  --config FILE  check the claims of this file's experiment of the same name instead of those in DIR/run.json
                 (claims written after the run)
  --steps        also print every automatic step, not only the claims and the axis that moves each metric most
  --fail-on WHAT refuted: exit 1 only when a claim is refuted (an inconclusive one passes); inconclusive: also
                 exit 3 when some are inconclusive and none refuted (the default)
  --json         one JSON document on stdout: { dir, experiment, exit_code, claims_verdict, claims, steps, leaders },
                 claims and steps as rows of verdicts.csv
  --keep-disturbed  count disturbed runs (\`disturbed\` = true in runs.csv) in the statistics (default: as the
                    matrix was told; left out unless it ran with --keep-disturbed)
  -h, --help     this text

Exit status: the table in \`node-threads-lab --help\` (and docs/cli.md), one for every command.`;

const OPTIONS = {
  config: { type: 'string' },
  steps: { type: 'boolean', default: false },
  'fail-on': { type: 'string' },
  json: { type: 'boolean', default: false },
  'keep-disturbed': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
};

export async function main(argv, { stdout, stderr, paths }) {
  const { values, positionals } = parseCommandLine(argv, { allowPositionals: true, usage: USAGE, options: OPTIONS });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [dir] = resolveFolders(paths, positionals, { usage: USAGE, count: 1, newest: stderr });
  const failOn = parseFailOn(values['fail-on'], USAGE) ?? 'inconclusive';
  const config = resolveTyped(paths, values.config);
  const judged = await judge(dir, config, { keepDisturbed: values['keep-disturbed'] || undefined });
  const verdicts = { ...judged, exit_code: gateClaims(judged.exit_code, failOn) };
  if (values.json) {
    stdout.write(`${JSON.stringify(verdicts, null, 2)}\n`);
    return verdicts.exit_code;
  }
  stdout.write(`${verdicts.dir}\n`);
  if (verdicts.claims.length === 0)
    stdout.write(`No claims: ${config ? `the experiment in ${values.config}` : 'run.json'} has no \`claims:\`.\n`);
  stdout.write(`${formatAnswersText(verdicts, { allSteps: values.steps }).join('\n')}\n`);
  return verdicts.exit_code;
}
