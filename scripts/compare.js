#!/usr/bin/env node
// `npm run compare -- DIR_A DIR_B`: matches cells by id (or by every axis but one, --match-on), prints per cell and
// primary metric both medians, the ratio B / A with its 95% CI, significance stars and a verdict, and writes the
// same to compare.csv. With --threshold it is a gate: exit 1 when a cell got worse by more than the threshold.
import { resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import { LabError } from '../runner/errors.js';
import { parseCommandLine, runCommand } from '../runner/command-line.js';
import { readResults } from '../runner/results/read-results.js';
import { compareResults, formatComparison } from '../runner/report/compare.js';
import { formatCsv } from '../runner/results/csv.js';
import { DEFAULT_THRESHOLD, parseThreshold } from '../runner/verdicts/compare-cells.js';
import { formatNumber } from '../runner/report/format.js';

const USAGE = `Usage: npm run compare -- DIR_A DIR_B [--threshold PCT] [--match-on AXIS] [--out FILE] [--keep-disturbed]

  DIR_A            the reference results folder (before)
  DIR_B            the results folder to judge (after); ratios are B / A
  --threshold PCT  a gate: exit 1 when a cell's primary metric got worse by more than PCT (e.g. 5%) with its whole
                   95% CI beyond it; also the band inside which a change is called "same" (default 5%)
  --match-on AXIS  pair cells whose axis values differ only in AXIS (e.g. node: a Node 22 folder against a
                   Node 24 folder), instead of by cell id
  --out FILE       where to write the CSV (default: compare.csv in the current folder)
  --keep-disturbed count disturbed runs (\`disturbed\` = true in runs.csv) in the statistics (default: as the
                   matrix was told; left out unless it ran with --keep-disturbed)
  -h, --help       this text

Exit status: 0 compared (and, with --threshold, no regression), 1 a regression beyond the threshold, 2 bad usage.`;

export function main(argv, { stdout = process.stdout } = {}) {
  const { values, positionals } = parse(argv);
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 2) throw new LabError('ERR_USAGE', `expected two results folders, found ${positionals.length}`, { hint: USAGE });
  const [dirA, dirB] = positionals.map((dir) => resolve(dir));
  const threshold = values.threshold === undefined ? DEFAULT_THRESHOLD : parseThreshold(values.threshold);
  const matchOn = values['match-on'];
  const keepDisturbed = values['keep-disturbed'] || undefined;
  const [resultsA, resultsB] = [readResults(dirA, { keepDisturbed }), readResults(dirB, { keepDisturbed })];
  const axes = [...new Set([...resultsA.axes, ...resultsB.axes])];
  if (matchOn !== undefined && !axes.includes(matchOn)) {
    throw new LabError('ERR_USAGE', `--match-on ${matchOn}: neither folder has an axis of that name`, { hint: `axes in these folders: ${axes.join(', ')}` });
  }
  const comparison = compareResults(resultsA, resultsB, { threshold, matchOn });
  if (comparison.rows.length === 0) {
    throw new LabError('ERR_USAGE', `${dirA} and ${dirB} have no cell in common`, {
      hint: matchOn
        ? `with --match-on ${matchOn}, cells pair when every other axis value and the params are equal`
        : 'cells match by the `cell` id, which changes with any axis value, param, env or memory limit; to compare across one axis (e.g. Node versions) add --match-on AXIS',
    });
  }
  const out = resolve(values.out);
  writeFileSync(out, formatCsv(comparison.rows, comparison.columns, { header: true }));
  stdout.write(`A = ${dirA}\nB = ${dirB}\n\n`);
  stdout.write(formatComparison(comparison, { labelA: 'A', labelB: 'B' }));
  stdout.write(`\nwrote ${out}\n`);
  if (values.threshold === undefined) return 0;
  const limit = `${formatNumber(threshold * 100)}%`;
  if (comparison.regressions.length === 0) {
    stdout.write(`gate: passed, no cell is worse by more than ${limit} with its whole 95% CI beyond it\n`);
    return 0;
  }
  stdout.write(`gate: FAILED, ${comparison.regressions.length} worse by more than ${limit} with the whole 95% CI beyond it: ${comparison.regressions.map((row) => `${row.cell} ${row.metric} ×${formatNumber(row.ratio, 3)} [${formatNumber(row.ratio_ci95_low, 3)}, ${formatNumber(row.ratio_ci95_high, 3)}]`).join('; ')}\n`);
  return 1;
}

function parse(argv) {
  return parseCommandLine(argv, { allowPositionals: true, usage: USAGE, options: { out: { type: 'string', default: 'compare.csv' }, threshold: { type: 'string' }, 'match-on': { type: 'string' }, 'keep-disturbed': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } });
}

runCommand(main);
