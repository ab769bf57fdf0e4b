// `node-threads-lab report DIR [DIR...]`: (re)writes the reports of each results folder from its runs.csv,
// tasks.csv and run.json alone.
import { parseCommandLine } from './command-line.js';
import { report } from '../index.js';
import { parseAxisValues } from '../report/axis-values.js';
import { resolveFolders, resolveTyped } from './caller-paths.js';

export const USAGE = `Usage: node-threads-lab report [DIR...] [--baseline AXIS=VALUE,...] [--config FILE] [--keep-disturbed] [--json]
       npm run report -- [DIR...]         (in a checkout of node-threads-lab)

Rewrites summary.csv, verdicts.csv, pivot-*.csv, results.json, report.md and report.html in each folder.

  DIR          a results folder written by \`node-threads-lab run\` (default: the newest under results/, named
               on stderr)
  --config FILE  judge the claims of this file's experiment of the same name instead of those in DIR/run.json
                 (claims written or re-read after the run)
  --baseline   the cell speedup and efficiency are measured against, e.g. cpus=1,uv_threadpool_size=1
               (default: report.baseline in the experiment, else the cell with the fewest resources)
  --keep-disturbed  count disturbed runs (\`disturbed\` = true in runs.csv) in the statistics (default: as the
                    matrix was told; left out unless it ran with --keep-disturbed)
  --json       one JSON document on stdout instead of the "wrote" lines: { folders: [{ dir, files }] }
  -h, --help   this text

Exit status: the table in \`node-threads-lab --help\` (and docs/cli.md), one for every command.`;

export async function main(argv, { stdout, stderr, paths }) {
  const { values, positionals } = parseCommandLine(argv, {
    allowPositionals: true,
    usage: USAGE,
    options: {
      baseline: { type: 'string' },
      config: { type: 'string' },
      'keep-disturbed': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const dirs = resolveFolders(paths, positionals, { usage: USAGE, newest: stderr });
  const baseline = values.baseline === undefined ? undefined : parseAxisValues(values.baseline, '--baseline');
  const folders = [];
  for (const dir of dirs) {
    const { dir: absolute, files } = await report(dir, {
      baseline,
      config: resolveTyped(paths, values.config),
      keepDisturbed: values['keep-disturbed'] || undefined,
    });
    folders.push({ dir: absolute, files });
    if (!values.json) stdout.write(`${files.map((file) => `wrote ${file}`).join('\n')}\n`);
  }
  if (values.json) stdout.write(`${JSON.stringify({ folders }, null, 2)}\n`);
  return 0;
}
