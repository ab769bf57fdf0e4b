#!/usr/bin/env node
// `npm run docs`: every page generated from what is committed, regenerated in one go — the reference pages that are
// tables of the code, the reports of every results folder kept under docs/, and the pages built from those folders.
// On a clean checkout it leaves the tree unchanged (the pages are committed as these steps write them). Pages of
// fresh measurements (bench.md, bench-race.md, bench-slots.md) are their benchmark's to write: scripts/README.md.
// Usage: node scripts/docs.js [--list]   (--list prints the steps and the pages each writes, runs nothing)
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { isEntryPoint, parseCommandLine, runCommand } from '../runner/commands/command-line.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Every results folder kept under docs/ (a folder with a runs.csv), in a stable order. */
export function listDocFolders(root = ROOT) {
  const walk = (dir) =>
    existsSync(join(dir, 'runs.csv'))
      ? [relative(root, dir)]
      : readdirSync(dir, { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .flatMap((entry) => walk(join(dir, entry.name)));
  return walk(join(root, 'docs')).sort();
}

/**
 * The steps, in order: a later one may read what an earlier one wrote (findings.md reads the folders' reports).
 * `writes`: the generated pages, as paths or folder prefixes — test/unit/scripts/maintainer-tools.test.js checks that
 * every page saying it is generated has a step here or is a benchmark's.
 */
export function listSteps(root = ROOT) {
  const folders = listDocFolders(root);
  const under = (prefix) => folders.filter((dir) => dir.startsWith(prefix));
  const published = under('docs/findings/');
  const spare = under('docs/model-check/spare/');
  const modelCheck = under('docs/model-check/').filter((dir) => !spare.includes(dir));
  const others = folders.filter((dir) => !published.includes(dir) && !modelCheck.includes(dir) && !spare.includes(dir));
  return [
    { name: 'schema', argv: ['scripts/write-schema.js'], writes: ['runner/config/experiments.schema.json'] },
    { name: 'columns and params', argv: ['scripts/write-docs.js'], writes: ['docs/columns.md', 'docs/params.md'] },
    { name: 'cli', argv: ['scripts/write-cli-docs.js'], writes: ['docs/cli.md'] },
    {
      name: 'reports of the folders under docs/',
      argv: ['runner/cli.js', 'report', ...others],
      writes: ['docs/settling/', 'docs/statistics/', 'docs/interference/'],
    },
    // The published folders are judged by the claims of the file as it is now (their run.json has the claims of
    // the day they ran): the classes findings.md shows are the ones their report.md and verdicts.csv show.
    {
      name: "reports of the published folders, by published-experiments.yml's claims",
      argv: ['runner/cli.js', 'report', ...published, '--config', 'published-experiments.yml'],
      writes: ['docs/findings/'],
    },
    // The model check is the model on a busy host: every run counts, disturbed or not (docs/model-check/README.md).
    {
      name: 'reports of the model-check folders, every run counted',
      argv: ['runner/cli.js', 'report', ...modelCheck, '--keep-disturbed'],
      writes: ['docs/model-check/'],
    },
    // The model where it can be wrong: runs of a quiet host, read as they ran (docs/model-check/README.md).
    ...(spare.length
      ? [
          {
            name: 'reports of the spare-capacity model checks',
            argv: ['runner/cli.js', 'report', ...spare],
            writes: spare,
          },
        ]
      : []),
    { name: 'model check', argv: ['scripts/model-check-doc.js'], writes: ['docs/model-check/README.md'] },
    {
      name: 'findings',
      argv: ['scripts/findings.js'],
      writes: ['docs/findings.md', 'docs/findings/charts/', 'README.md'],
    },
    { name: 'settling', argv: ['scripts/settling.js', '--docs'], writes: ['docs/settling.md', 'docs/http.md'] },
    // The bound across invocations, from the committed races of the default file (not a new measurement).
    {
      name: 'bound across invocations',
      argv: ['scripts/bench-repeat.js', '--folders', ...under('docs/settling/race-'), '--docs'],
      writes: ['docs/bench-repeat.md'],
    },
    {
      name: 'run times',
      argv: ['scripts/write-run-time-figures.js'],
      writes: ['runner/estimate/run-time-figures.json'],
    },
    { name: 'statistics', argv: ['scripts/bench-stats.js'], writes: ['docs/statistics.md'] },
  ];
}

/** Pages written by a benchmark from a fresh measurement: `npm run docs` leaves them alone. */
export const MEASURED_PAGES = {
  'docs/bench.md': 'npm run bench -- --docs',
  'docs/bench-race.md': 'npm run bench:race -- --docs',
  'docs/bench-slots.md': 'npm run bench:slots -- --docs',
  'docs/bench-noise.md': 'npm run bench:noise -- --docs',
};

const USAGE = `Usage: npm run docs [-- --list]

  --list       print the steps and the pages each writes; run nothing
  -h, --help   this text`;

export async function main(argv) {
  const { values } = parseCommandLine(argv, {
    usage: USAGE,
    options: { list: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const steps = listSteps();
  if (values.list) {
    for (const step of steps)
      process.stdout.write(`${step.name}: node ${step.argv.join(' ')} → ${step.writes.join(', ')}\n`);
    return 0;
  }
  for (const step of steps) {
    const started = Date.now();
    process.stderr.write(
      `docs: ${step.name} (node ${step.argv.slice(0, 2).join(' ')}${step.argv.length > 2 ? ' …' : ''})\n`,
    );
    // Each step's own output is a diagnostic here: what `npm run docs` delivers is the pages.
    await execa(process.execPath, step.argv, { cwd: ROOT, stdout: 'inherit', stderr: 'inherit' }).catch((error) => {
      throw new Error(`step "${step.name}" failed (exit ${error.exitCode}): node ${step.argv.join(' ')}`);
    });
    process.stderr.write(`docs: ${step.name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  process.stdout.write(`regenerated: ${steps.flatMap((step) => step.writes).join(', ')}\n`);
  return 0;
}

if (isEntryPoint(import.meta.url)) runCommand(main);
