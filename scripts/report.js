#!/usr/bin/env node
// `npm run report -- DIR [DIR...]`: (re)writes summary.csv, pivot-*.csv, report.md and report.html in each
// results folder from its runs.csv, tasks.csv and run.json alone.
import { resolve } from 'node:path';
import { LabError } from '../runner/errors.js';
import { parseCommandLine, runCommand } from '../runner/command-line.js';
import { writeReports } from '../runner/report/write-reports.js';
import { parseAxisValues } from '../runner/report/axis-values.js';

const USAGE = `Usage: npm run report -- DIR [DIR...] [--baseline AXIS=VALUE,...] [--keep-disturbed]

  DIR          a results folder written by \`npm run matrix\`
  --baseline   the cell speedup and efficiency are measured against, e.g. cpus=1,uv_threadpool_size=1
               (default: report.baseline in the experiment, else the cell with the fewest resources)
  --keep-disturbed  count disturbed runs (\`disturbed\` = true in runs.csv) in the statistics (default: as the
                    matrix was told; left out unless it ran with --keep-disturbed)
  -h, --help   this text`;

export function main(argv, { stdout = process.stdout } = {}) {
  const { values, positionals } = parse(argv);
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new LabError('ERR_USAGE', 'no results folder given', { hint: USAGE });
  const baseline = values.baseline === undefined ? undefined : parseAxisValues(values.baseline, '--baseline');
  for (const dir of positionals) {
    const { files } = writeReports(resolve(dir), { baseline, keepDisturbed: values['keep-disturbed'] || undefined });
    stdout.write(`${files.map((file) => `wrote ${file}`).join('\n')}\n`);
  }
  return 0;
}

function parse(argv) {
  return parseCommandLine(argv, { allowPositionals: true, usage: USAGE, options: { baseline: { type: 'string' }, 'keep-disturbed': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } });
}

runCommand(main);
