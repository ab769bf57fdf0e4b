// `node-threads-lab model DIR...`: what the capacity model predicts for each cell of a results folder beside what
// was measured (the "Model vs measured" table report.md shows), as Markdown on stdout, from runs.csv and run.json
// alone; writes nothing. Where the two part, the host could not give what the model assumed (docs/report.md).
import { parseCommandLine } from './command-line.js';
import { model } from '../index.js';
import { resolveFolders } from './caller-paths.js';
import { escapeMarkdown } from '../report/markdown.js';

export const USAGE = `Usage: node-threads-lab model DIR [DIR...] [--json] [--keep-disturbed]
       npm run model -- DIR...            (in a checkout of node-threads-lab)

  DIR          a results folder written by \`node-threads-lab run\`
  --json       one JSON document on stdout: [{ dir, experiment, tables: [{ workload, calibrations, header, rows }] }]
  --keep-disturbed  count disturbed runs (\`disturbed\` = true in runs.csv) too (default: as the matrix was told;
                    left out unless it ran with --keep-disturbed)
  -h, --help   this text

Exit status: the table in \`node-threads-lab --help\` (and docs/cli.md), one for every command.`;

const OPTIONS = {
  json: { type: 'boolean', default: false },
  'keep-disturbed': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
};

export async function main(argv, { stdout, paths }) {
  const { values, positionals } = parseCommandLine(argv, { allowPositionals: true, usage: USAGE, options: OPTIONS });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const keepDisturbed = values['keep-disturbed'] || undefined;
  const folders = await Promise.all(
    resolveFolders(paths, positionals, { usage: USAGE }).map((dir) => model(dir, { keepDisturbed })),
  );
  if (values.json) stdout.write(`${JSON.stringify(folders, null, 2)}\n`);
  else for (const folder of folders) stdout.write(`${formatModelMarkdown(folder).join('\n')}\n\n`);
  return 0;
}

/** One folder's tables as Markdown: a heading, each workload's calibration and its cells. */
export function formatModelMarkdown({ dir, experiment, tables }) {
  const lines = [`## ${escapeMarkdown(experiment || dir)}`, ''];
  if (tables.length === 0)
    return [...lines, '(no model: no measured run, no run.json parameters, or a workload or load without one)'];
  const line = (cells) => `| ${cells.map((cell) => escapeMarkdown(String(cell))).join(' | ')} |`;
  for (const table of tables) {
    lines.push(
      ...table.calibrations.map((text) => `${escapeMarkdown(table.workload)} calibration: ${escapeMarkdown(text)}`),
      '',
      line(table.header),
      `|${table.header.map(() => ' --- ').join('|')}|`,
      ...table.rows.map(line),
      '',
    );
  }
  return lines;
}
