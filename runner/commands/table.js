// The subcommands and the exit statuses: the one list `--help`, the README's command table (a test compares them)
// and docs/cli.md are written from. Each subcommand's module is loaded only when it runs.

export const SUBCOMMANDS = [
  {
    name: 'run',
    synopsis: 'run [--config FILE] [--out DIR] [--only NAME] [--resume DIR] [--fail-on refuted|inconclusive] ...',
    summary: 'run every experiment of experiments.yml, one container per run',
    load: () => import('./run.js'),
  },
  {
    name: 'plan',
    synopsis: 'plan [--config FILE] [--only NAME] [--verbose] [--json]',
    summary:
      "print the cells, runs and time a matrix would take, its claims' metrics and the check of your code; starts nothing",
    load: () => import('./plan.js'),
  },
  {
    name: 'report',
    synopsis: 'report [DIR...] [--baseline AXIS=VALUE,...] [--json]',
    summary: 'rebuild summary.csv, verdicts.csv, pivot-*.csv, results.json, report.md and report.html',
    load: () => import('./report.js'),
  },
  {
    name: 'claims',
    synopsis: 'claims [DIR] [--config FILE] [--steps] [--fail-on refuted|inconclusive] [--json]',
    summary: 'the verdicts of a results folder, judged again',
    load: () => import('./claims.js'),
  },
  {
    name: 'advise',
    synopsis: 'advise [DIR] [--json]',
    summary: 'what to set, per CPU budget: the recommended setting, what it beats, the default against it',
    load: () => import('./advise.js'),
  },
  {
    name: 'compare',
    synopsis: 'compare DIR_A DIR_B [--threshold PCT] [--match-on AXIS] [--json]',
    summary: 'per cell and metric: ratio B / A with its 95% interval; with --threshold, a gate',
    load: () => import('./compare.js'),
  },
  {
    name: 'model',
    synopsis: 'model DIR [DIR...] [--json]',
    summary: "what each workload's capacity model predicts for every cell, beside the measured median",
    load: () => import('./model.js'),
  },
  {
    name: 'init',
    synopsis:
      'init --script FILE [--export NAME] | --http-app FILE | --command "PROGRAM ARGS" [--image IMAGE] [--cpus LIST] [--from FILE] [--json]',
    summary: 'write an experiments.yml for your own code',
    load: () => import('./init.js'),
  },
  {
    name: 'images',
    synopsis: 'images [--image auto|official|local|NAME] [--json] [MAJOR...]',
    summary: 'build, or confirm up to date, the workload images ahead of a matrix',
    load: () => import('./images.js'),
  },
];

// Every command's exit status, in one table (docs/cli.md shows it; a test keeps the two the same).
export const EXIT_STATUSES = [
  [
    '0',
    'done: every run ok, and with --fail-on no claim that fails it (run); every claim holds, or there are none (claims; with --fail-on refuted, none is refuted); every answer settled (advise); compared, and with --threshold no regression (compare)',
  ],
  [
    '1',
    'some runs not ok, their rows kept, or an engine was lost (run); a claim is refuted (claims, and run with --fail-on); a regression beyond --threshold (compare)',
  ],
  [
    '2',
    'bad arguments, config or results folder (a damaged one: the file, the line and what is wrong; one written by a newer version), or nothing could start (no engine, no image, a preflight failed): no container was created; init: the file exists already; compare: a --threshold gate across folders from different hosts, without --allow-different-hosts',
  ],
  [
    '3',
    'some claims are inconclusive and none is refuted (claims, unless --fail-on refuted; run with --fail-on inconclusive, every run ok); some advice is still open, or a budget not measured here (advise); with --threshold, no regression but some cells cannot be judged: fewer than 2 runs that count on a side (compare)',
  ],
  [
    '4',
    'a results file (run.json, runs.csv, tasks.csv) could not be written, e.g. a full disk: the rows already written are whole and kept, no container is left; free space, then `run --resume DIR` (run)',
  ],
  [
    '130, 143',
    'stopped by Ctrl-C (SIGINT) or SIGTERM; every row written is whole, and `run --resume DIR` finishes the rest',
  ],
];

export function findSubcommand(name) {
  return SUBCOMMANDS.find((subcommand) => subcommand.name === name);
}

/** `node-threads-lab --help`. */
export function formatTopHelp() {
  const width = Math.max(...SUBCOMMANDS.map(({ name }) => name.length));
  const statusWidth = Math.max(...EXIT_STATUSES.map(([status]) => status.length));
  return [
    'Usage: node-threads-lab COMMAND [options]',
    '',
    'Experiments on Node.js threading, one locked-down Docker container per run. Commands:',
    '',
    ...SUBCOMMANDS.map(({ name, summary }) => `  ${name.padEnd(width)}  ${summary}`),
    '',
    'node-threads-lab help COMMAND (or COMMAND --help) gives its options. Paths are relative to the folder you',
    'are in; under `npm run` in a checkout, see docs/cli.md. -v, --version prints the version.',
    '',
    'Exit status:',
    ...EXIT_STATUSES.flatMap(([status, meaning]) =>
      wrapWords(meaning, 96 - statusWidth).map(
        (line, index) => `  ${(index === 0 ? status : '').padEnd(statusWidth)}  ${line}`,
      ),
    ),
    '',
    'Reference: docs/cli.md (commands), docs/api.md (the same from code), docs/experiments.md (experiments.yml).',
  ].join('\n');
}

function wrapWords(text, width) {
  const lines = [''];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (lines[last] && lines[last].length + 1 + word.length > width) lines.push(word);
    else lines[last] = lines[last] ? `${lines[last]} ${word}` : word;
  }
  return lines;
}
