#!/usr/bin/env node
// docs/model-check/README.md's generated part: for every folder under docs/model-check/, every ratio the capacity
// model gives beside the measured one (each step between neighbouring values of an axis), whether they agree within
// 10%, and whether the two cells' budgets were below what the rest of the host left free — the only cells where the
// model could be wrong, since elsewhere it reads what the others left from the same runs (scripts/lib/
// model-ratios.js). The busy-host folders at the top count every run, as they were kept; the spare-capacity ones
// under spare/ are read as their run.json says.
//
//   node scripts/model-check-doc.js [--dir DIR] [--page FILE]
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEntryPoint, parseCommandLine, runCommand } from '../runner/commands/command-line.js';
import { LabError } from '../runner/errors.js';
import { readResults } from '../runner/results/read-results.js';
import { countAgreement, listModelRatios, MODEL_AGREES } from './lib/model-ratios.js';
import { escapeCell, formatNumber } from './lib/findings-format.js';

const PROJECT_DIR = fileURLToPath(new URL('../', import.meta.url));
const MARKERS = /(<!-- model-check:ratios:start -->)[\s\S]*?(<!-- model-check:ratios:end -->)/;

const USAGE = `Usage: node scripts/model-check-doc.js [--dir DIR] [--page FILE]

  --dir DIR    the model-check folders (default: docs/model-check; spare-capacity ones in DIR/spare/)
  --page FILE  whose model-check:ratios block to rewrite (default: DIR/README.md)`;

export async function main(argv, { stdout = process.stdout } = {}) {
  const { values } = parseCommandLine(argv, {
    usage: USAGE,
    options: {
      dir: { type: 'string', default: join(PROJECT_DIR, 'docs/model-check') },
      page: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const dir = resolve(values.dir);
  const page = resolve(values.page ?? join(dir, 'README.md'));
  const text = readFileSync(page, 'utf8');
  if (!MARKERS.test(text))
    throw new LabError('ERR_USAGE', `${page} has no <!-- model-check:ratios:start --> … end block`, {
      hint: 'add the two markers where the generated tables belong',
    });
  const block = renderModelCheck(dir);
  writeFileSync(
    page,
    text.replace(MARKERS, (_, start, end) => `${start}\n${block.join('\n')}\n${end}`),
  );
  stdout.write(`wrote the model-check:ratios block of ${page}\n`);
  return 0;
}

/** The folders: the busy-host ones (every run counted) and the spare-capacity ones under spare/ (as they ran). */
export function listModelCheckFolders(dir) {
  const folders = (root, keepDisturbed) =>
    existsSync(root)
      ? readdirSync(root, { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, 'runs.csv')))
          .map((entry) => ({ dir: join(root, entry.name), keepDisturbed }))
          .sort((a, b) => a.dir.localeCompare(b.dir))
      : [];
  return { busy: folders(dir, true), spare: folders(join(dir, 'spare'), undefined) };
}

/** The generated lines: per folder its agreement and every model ratio; the totals of each kind first. */
export function renderModelCheck(dir) {
  const { busy, spare } = listModelCheckFolders(dir);
  const read = ({ dir: folder, keepDisturbed }) => {
    const results = readResults(folder, { keepDisturbed });
    return { name: relative(dir, folder), results, rows: listModelRatios(results) };
  };
  const [busyRead, spareRead] = [busy.map(read), spare.map(read)];
  const totals = (list) => countAgreement(list.flatMap(({ rows }) => rows));
  return [
    `**On the busy host** (${plural(busyRead.length, 'folder')}, every run counted): ${busyRead.length ? totals(busyRead) : 'no folder'}.`,
    '',
    `**With spare capacity** (${plural(spareRead.length, 'folder')} under spare/): ${spareRead.length ? totals(spareRead) : 'not run yet — the commands are above'}.`,
    '',
    ...[...spareRead, ...busyRead].flatMap(renderFolder),
  ];
}

const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;

function renderFolder({ name, results, rows }) {
  const { info } = results;
  const when = info?.started_at ? `, ${info.started_at.slice(0, 16).replace('T', ' ')} UTC` : '';
  return [
    `### [${name}](${name}/)`,
    '',
    `${info?.config?.description ?? ''} ${info?.host?.cpus ?? '?'} CPUs${when}. ${countAgreement(rows)}.`,
    '',
    `| step | at | measured B / A [95% CI] (n) | model | measured ÷ model | within ${Math.round(MODEL_AGREES * 100)}% | A's and B's budget against what was free (the others' CPU-s a second) |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(formatRow),
    '',
  ];
}

function formatRow(row) {
  const { ratio, ci95_low: low, ci95_high: high, n_a: nA, n_b: nB } = row.comparison;
  const budget = row.headroom
    .map((each) =>
      each.free === null
        ? `${formatNumber(each.allowed)}: free not recorded`
        : `${formatNumber(each.allowed)} of ${formatNumber(each.free)} free (${formatNumber(each.others)})`,
    )
    .join('; ');
  const spare = row.spare === true ? 'both below' : row.spare === false ? 'not both below' : 'not known';
  return `| ${row.metric}: ${row.axis} ${row.a} → ${row.b} | ${escapeCell(row.where || '—')} | ${formatNumber(ratio)} [${formatNumber(low)}, ${formatNumber(high)}] (n ${nA}/${nB}) | ${formatNumber(row.model)} | ${formatNumber(row.off)} | ${row.agrees ? 'yes' : '**no**'} | ${budget}: ${spare} |`;
}

if (isEntryPoint(import.meta.url)) runCommand(main);
