// `node-threads-lab compare DIR_A DIR_B`: matches cells by id (or by every axis but one, --match-on), prints per
// cell and primary metric both medians, the ratio B / A with its 95% CI, significance stars and a verdict; --out
// writes the same as CSV. With --threshold it is a gate: exit 1 when a cell got worse by more than it.
import { parseCommandLine } from './command-line.js';
import { compare } from '../index.js';
import { resolveFolders, resolveTyped } from './caller-paths.js';
import { formatHostDifferences } from '../report/compare.js';

export const USAGE = `Usage: node-threads-lab compare DIR_A DIR_B [--threshold PCT] [--allow-different-hosts] [--match-on AXIS] [--out FILE]
                                [--json] [--keep-disturbed]
       npm run compare -- DIR_A DIR_B     (in a checkout of node-threads-lab)

  DIR_A            the reference results folder (before)
  DIR_B            the results folder to judge (after); ratios are B / A
  --threshold PCT  a gate: exit 1 when a cell's primary metric got worse by more than PCT percent (5 or 5%) with
                   its whole 95% CI beyond it, Holm-corrected across the comparisons; exit 3 when none did but a
                   cell has fewer than 2 runs that count on a side (it cannot be judged, so the gate does not
                   pass); also the band inside which a change is called "about the same" (default 5%)
  --match-on AXIS  pair cells whose axis values differ only in AXIS (e.g. node: a Node 22 folder against a
                   Node 24 folder), instead of by cell id
  --out FILE       also write the comparison as CSV to FILE (nothing is written without it)
  --allow-different-hosts  gate all the same when A and B were measured on different hosts (CPU model, CPU
                   count, kernel, Node.js version or image differ); without it such a gate exits 2. The
                   differences are told first either way
  --json           one JSON document on stdout: { a, b, hosts, method, threshold, match_on, gate, rows,
                   regressions, unjudged, ... }
  --keep-disturbed  count disturbed runs (\`disturbed\` = true in runs.csv) in the statistics (default: as the
                    matrix was told; left out unless it ran with --keep-disturbed)
  -h, --help       this text

Exit status: the table in \`node-threads-lab --help\` (and docs/cli.md), one for every command.`;

const OPTIONS = {
  out: { type: 'string' },
  threshold: { type: 'string' },
  'match-on': { type: 'string' },
  'allow-different-hosts': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  'keep-disturbed': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
};

export async function main(argv, { stdout, stderr, paths }) {
  const { values, positionals } = parseCommandLine(argv, { allowPositionals: true, usage: USAGE, options: OPTIONS });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [dirA, dirB] = resolveFolders(paths, positionals, { usage: USAGE, count: 2 });
  const compared = await compare(dirA, dirB, {
    threshold: values.threshold,
    matchOn: values['match-on'],
    out: resolveTyped(paths, values.out),
    keepDisturbed: values['keep-disturbed'] || undefined,
    allowDifferentHosts: values['allow-different-hosts'],
  });
  const status = { failed: 1, incomplete: 3 }[compared.gate] ?? 0;
  if (values.json) {
    // What the text says first goes to stderr here: stdout holds the document, whose `hosts` says it too.
    for (const line of formatHostDifferences(compared.hosts.differences)) stderr.write(`${line}\n`);
    if (compared.file) stderr.write(`wrote ${compared.file}\n`);
    const { text, ...document } = compared;
    stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return status;
  }
  stdout.write(compared.text);
  return status;
}
