#!/usr/bin/env node
// Benchmark: what "at most U% slower than the best tried (95%)" is worth across invocations. The bound holds within
// one invocation on one host; run the same experiments file again and the picks of budgets whose settings lie a few
// per cent apart may differ. This runs the file N times (default 3, the default experiments.yml) through the real CLI
// into one folder, or reads N folders an earlier invocation left (--folders), and prints per budget each invocation's
// answer, how often the picks agree, and whether each pick is within `within` of the best on the pooled runs of all
// of them (each invocation's rounds kept as blocks of their own).
// Usage: npm run bench:repeat [-- --runs 3 --config FILE --only NAME --out DIR] [-- --folders A B C] [-- --docs]
// (--docs also writes docs/bench-repeat.md from the folders; `npm run docs` does so from docs/settling/race-1..3.)
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { LabError } from '../runner/errors.js';
import { isEntryPoint, parseCommandLine, runCommand } from '../runner/commands/command-line.js';
import { compareInvocations, formatInvocations } from './lib/repeat-figures.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = fileURLToPath(new URL('../runner/cli.js', import.meta.url));
const DOCS_FILE = join(ROOT, 'docs/bench-repeat.md');

const USAGE = `Usage: npm run bench:repeat [-- --runs N] [--config FILE] [--only NAME] [--out DIR] [--docs]
       npm run bench:repeat -- --folders DIR DIR [DIR...] [--docs]

  --runs N       invocations of the experiments file, one after the other (default 3)
  --config FILE  the experiments file (default: experiments.yml); one experiment, or --only NAME
  --only NAME    the experiment to run, when the file has several
  --out DIR      where the invocations' folders go, DIR/invocation-1 … (default: a new folder under the system's
                 temporary folder, named on stderr)
  --folders      read these results folders (of one experiment) instead of running anything
  --docs         also write docs/bench-repeat.md from these folders
  -h, --help     this text`;

const OPTIONS = {
  runs: { type: 'string', default: '3' },
  config: { type: 'string' },
  only: { type: 'string' },
  out: { type: 'string' },
  folders: { type: 'boolean', default: false },
  docs: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
};

export async function main(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const { values, positionals } = parseCommandLine(argv, { options: OPTIONS, usage: USAGE, allowPositionals: true });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.folders !== positionals.length > 0 || (values.folders && positionals.length < 2))
    throw new LabError('ERR_USAGE', 'give --folders two results folders or more, or no folder at all (to run them)', {
      hint: USAGE,
    });
  const dirs = values.folders ? positionals : await runInvocations(values, stderr);
  const figures = compareInvocations(dirs);
  const lines = formatInvocations(figures);
  stdout.write(`${lines.join('\n')}\n`);
  if (values.docs) {
    writeFileSync(DOCS_FILE, formatPage(lines, dirs, values));
    stderr.write(`wrote ${relative(ROOT, DOCS_FILE)}\n`);
  }
  return 0;
}

/** The experiments file run N times, one invocation after the other, each into a folder of its own. */
async function runInvocations(values, stderr) {
  const runs = Number(values.runs);
  if (!(Number.isInteger(runs) && runs >= 2))
    throw new LabError('ERR_USAGE', `--runs takes a whole number from 2 up, found ${JSON.stringify(values.runs)}`);
  const out = values.out ?? mkdtempSync(join(os.tmpdir(), 'bench-repeat-'));
  mkdirSync(out, { recursive: true });
  stderr.write(`bench:repeat: ${runs} invocations into ${out}\n`);
  const dirs = [];
  for (let index = 1; index <= runs; index++) {
    const dir = join(out, `invocation-${index}`);
    const args = [CLI, 'run', '--out', dir, '--seed', String(index)];
    if (values.config) args.push('--config', values.config);
    if (values.only) args.push('--only', values.only);
    stderr.write(`bench:repeat: invocation ${index} of ${runs}: node ${args.slice(1).join(' ')}\n`);
    const run = await execa('node', args, { cwd: ROOT, reject: false, stdout: 'ignore', stderr: 'inherit' });
    // 1: some runs not ok (their rows kept), 3: some claims undecided: the folder is whole either way.
    if (![0, 1, 3].includes(run.exitCode))
      throw new LabError('ERR_USAGE', `invocation ${index} stopped with exit ${run.exitCode}: see its output above`);
    dirs.push(dir);
  }
  return dirs;
}

function formatPage(lines, dirs, values) {
  const how = values.folders
    ? `npm run bench:repeat -- --folders ${dirs.map((dir) => relative(ROOT, dir) || dir).join(' ')} --docs`
    : `npm run bench:repeat -- --runs ${values.runs}${values.config ? ` --config ${values.config}` : ''} --docs`;
  return `${[
    '# The bound across invocations',
    '',
    `Generated by \`${how}\`; do not edit by hand.`,
    'The bound "at most U% slower than the best tried (95%)" holds within one invocation on one host. Here the same',
    "experiments file ran several times on this host: each invocation's answer per budget, how often the picks agree, and",
    "each pick against the best on the pooled runs of all of them (each invocation's rounds are blocks of their own;",
    'the gap is the pooled point estimate, the bound the pooled 95% bound). Picks that differ between settings a few per',
    'cent apart are the noise between invocations, not a wrong answer, when each is within the margin of the pooled best.',
    '',
    ...lines.slice(2),
  ].join('\n')}\n`;
}

if (isEntryPoint(import.meta.url)) runCommand(main);
