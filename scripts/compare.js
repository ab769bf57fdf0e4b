#!/usr/bin/env node
// `npm run compare -- DIR_A DIR_B`: matches cells by id (or by every axis but one, --match-on), prints per cell and
// primary metric n, both medians, the ratio B / A with its 95% CI, significance stars and a verdict; --out writes
// the same to a CSV. With --threshold it is a gate: exit 1 when a cell got worse by more than the threshold.
// The command itself is runner/report/compare.js compareFolders.
import { LabError } from '../runner/errors.js';
import { parseCommandLine, runCommand } from '../runner/command-line.js';
import { compareFolders } from '../runner/report/compare.js';

const USAGE = `Usage: npm run compare -- DIR_A DIR_B [--threshold PCT] [--match-on AXIS] [--out FILE]

  DIR_A            the reference results folder (before)
  DIR_B            the results folder to judge (after); ratios are B / A
  --threshold PCT  a gate: exit 1 when a cell's primary metric got worse by more than PCT percent (5 or 5%) with
                   its whole 95% CI beyond it, Holm-corrected across the comparisons; also the band inside which
                   a change is called "same" (default 5%)
  --match-on AXIS  pair cells whose axis values differ only in AXIS (e.g. node: a Node 22 folder against a
                   Node 24 folder), instead of by cell id
  --out FILE       also write the comparison as CSV to FILE (nothing is written without it)
  -h, --help       this text

Exit status: 0 compared (and, with --threshold, no regression), 1 a regression beyond the threshold, 2 bad usage.`;

export function main(argv, { stdout = process.stdout } = {}) {
  const { values, positionals } = parse(argv);
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 2) throw new LabError('ERR_USAGE', `expected two results folders, found ${positionals.length}`, { hint: USAGE });
  const [dirA, dirB] = positionals;
  const { text, exitCode } = compareFolders({ dirA, dirB, threshold: values.threshold, matchOn: values['match-on'], out: values.out });
  stdout.write(text);
  return exitCode;
}

function parse(argv) {
  return parseCommandLine(argv, { allowPositionals: true, usage: USAGE, options: { out: { type: 'string' }, threshold: { type: 'string' }, 'match-on': { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } } });
}

runCommand(main);
