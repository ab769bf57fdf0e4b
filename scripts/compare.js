#!/usr/bin/env node
// `npm run compare -- DIR_A DIR_B`: matches cells by id, prints per cell and primary metric both medians,
// the ratio B / A with its 95% CI and Welch's significance stars, and writes the same to compare.csv.
import { resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import { LabError } from '../runner/errors.js';
import { parseCommandLine, runCommand } from '../runner/command.js';
import { readResults } from '../runner/results/read-results.js';
import { compareResults, formatComparison } from '../runner/report/compare.js';
import { formatCsv } from '../runner/results/csv.js';

const USAGE = `Usage: npm run compare -- DIR_A DIR_B [--out FILE]

  DIR_A        the reference results folder (before)
  DIR_B        the results folder to judge (after); ratios are B / A
  --out FILE   where to write the CSV (default: compare.csv in the current folder)
  -h, --help   this text`;

export function main(argv, { stdout = process.stdout } = {}) {
  const { values, positionals } = parse(argv);
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 2) throw new LabError('ERR_USAGE', `expected two results folders, found ${positionals.length}`, { hint: USAGE });
  const [dirA, dirB] = positionals.map((dir) => resolve(dir));
  const comparison = compareResults(readResults(dirA), readResults(dirB));
  if (comparison.rows.length === 0) {
    throw new LabError('ERR_USAGE', `${dirA} and ${dirB} have no cell in common`, { hint: 'cells match by the `cell` id, which changes with any axis value, param, env or memory limit' });
  }
  const out = resolve(values.out);
  writeFileSync(out, formatCsv(comparison.rows, comparison.columns, { header: true }));
  stdout.write(`A = ${dirA}\nB = ${dirB}\n\n`);
  stdout.write(formatComparison(comparison, { labelA: 'A', labelB: 'B' }));
  stdout.write(`\nwrote ${out}\n`);
  return 0;
}

function parse(argv) {
  return parseCommandLine(argv, { allowPositionals: true, usage: USAGE, options: { out: { type: 'string', default: 'compare.csv' }, help: { type: 'boolean', short: 'h', default: false } } });
}

runCommand(main);
