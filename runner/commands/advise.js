// `node-threads-lab advise DIR`: what to set, per CPU budget, from a results folder — a table of the settings with
// their bounds and the sentence "use X: at most U% slower than the best tried (95%)", settled or open. Exit status: 0
// every answer settled, 3 some still open, 2 bad usage or folder.
import { parseCommandLine } from './command-line.js';
import { advise } from '../index.js';
import { resolveFolders } from './caller-paths.js';
import { formatAdviceText } from '../report/advice.js';

export const USAGE = `Usage: node-threads-lab advise [DIR] [--json] [--keep-disturbed]
       npm run advise -- [DIR]            (in a checkout of node-threads-lab)

  DIR            a results folder written by \`node-threads-lab run\` (default: the newest under results/, named
                 on stderr); its experiment's \`recommend:\`, or the defaults (the primary metric, one answer per
                 cpus/cpuset/node/engine value, within 5%)
  --json         one JSON document on stdout: { dir, experiment, settled, answers, tables, race, capacity },
                 answers as rows of advice.csv, tables as the settings of each budget (docs/report.md#advice),
                 capacity the capacity search's answer with \`slo:\` (capacity.csv's rows and one sentence a budget)
  --keep-disturbed  count disturbed runs (\`disturbed\` = true in runs.csv) in the statistics (default: as the
                    matrix was told; left out unless it ran with --keep-disturbed)
  -h, --help     this text

Exit status: the table in \`node-threads-lab --help\` (and docs/cli.md), one for every command.`;

const OPTIONS = {
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
  const advice = await advise(dir, { keepDisturbed: values['keep-disturbed'] || undefined });
  const exitCode = advice.settled ? 0 : 3;
  if (values.json) {
    stdout.write(`${JSON.stringify(advice, null, 2)}\n`);
    return exitCode;
  }
  stdout.write(`${advice.dir}\n`);
  for (const line of advice.capacity?.words ?? []) stdout.write(`${line}\n`);
  if (advice.answers.length === 0 && !advice.capacity)
    stdout.write('No advice: the matrix has no knob (an axis besides the CPU budget and the workload).\n');
  for (const line of formatAdviceText(advice)) stdout.write(`${line}\n`);
  return exitCode;
}
