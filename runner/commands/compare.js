// `node-threads-lab compare DIR_A DIR_B`: matches cells by id (or by every axis but one, --match-on), prints per
// cell and primary metric both medians, the ratio B / A with its 95% CI, significance stars and a verdict, and
// writes the same to compare.csv. With --threshold it is a gate: exit 1 when a cell got worse by more than it.
import path from 'node:path';
import { LabError } from '../errors.js';
import { parseCommandLine } from '../command-line.js';
import { compare } from '../index.js';
import { formatComparison } from '../report/compare.js';
import { formatNumber } from '../report/format.js';
import { parseThreshold } from '../verdicts/compare-cells.js';
import { resolveTyped } from './caller-paths.js';

export const USAGE = `Usage: node-threads-lab compare DIR_A DIR_B [--threshold PCT] [--match-on AXIS] [--out FILE] [--json]
       npm run compare -- DIR_A DIR_B     (in a checkout of node-threads-lab)

  DIR_A            the reference results folder (before)
  DIR_B            the results folder to judge (after); ratios are B / A
  --threshold PCT  a gate: exit 1 when a cell's primary metric got worse by more than PCT (e.g. 5%) with its whole
                   95% CI beyond it; also the band inside which a change is called "same" (default 5%)
  --match-on AXIS  pair cells whose axis values differ only in AXIS (e.g. node: a Node 22 folder against a
                   Node 24 folder), instead of by cell id
  --out FILE       where to write the CSV (default: compare.csv in the current folder)
  --json           one JSON document on stdout: { a, b, threshold, match_on, gate, rows, regressions, ... }
  -h, --help       this text

Exit status: the table in \`node-threads-lab --help\` (and docs/cli.md), one for every command.`;

const OPTIONS = { out: { type: 'string' }, threshold: { type: 'string' }, 'match-on': { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } };

export async function main(argv, { stdout, stderr, paths }) {
  const { values, positionals } = parseCommandLine(argv, { allowPositionals: true, usage: USAGE, options: OPTIONS });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 2) throw new LabError('ERR_USAGE', `expected two results folders, found ${positionals.length}`, { hint: USAGE });
  const [dirA, dirB] = positionals.map((dir) => resolveTyped(paths, dir));
  // A default is not typed: compare.csv lands where defaults go (the package folder under `npm run`).
  const out = resolveTyped(paths, values.out) ?? path.join(paths.defaults, 'compare.csv');
  const threshold = values.threshold === undefined ? undefined : parseThreshold(values.threshold);
  const compared = await compare(dirA, dirB, { threshold, matchOn: values['match-on'], out });
  const status = compared.gate === 'failed' ? 1 : 0;
  if (values.json) {
    stderr.write(`wrote ${compared.file}\n`);
    stdout.write(`${JSON.stringify(compared, null, 2)}\n`);
    return status;
  }
  stdout.write(`A = ${compared.a}\nB = ${compared.b}\n\n`);
  stdout.write(formatComparison({ rows: compared.rows, axes: compared.axes, onlyA: compared.only_a, onlyB: compared.only_b, threshold: compared.threshold }, { labelA: 'A', labelB: 'B' }));
  stdout.write(`\nwrote ${compared.file}\n`);
  if (compared.gate === null) return status;
  const limit = `${formatNumber(compared.threshold * 100)}%`;
  if (compared.gate === 'passed') {
    stdout.write(`gate: passed, no cell is worse by more than ${limit} with its whole 95% CI beyond it\n`);
    return status;
  }
  stdout.write(`gate: FAILED, ${compared.regressions.length} worse by more than ${limit} with the whole 95% CI beyond it: ${compared.regressions.map((row) => `${row.cell} ${row.metric} ×${formatNumber(row.ratio, 3)} [${formatNumber(row.ratio_ci95_low, 3)}, ${formatNumber(row.ratio_ci95_high, 3)}]`).join('; ')}\n`);
  return status;
}
