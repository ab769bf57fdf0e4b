#!/usr/bin/env node
// `npm run model -- [DIR...]`: the "model vs measured" table of each results folder (the same one report.md
// shows), on stdout, from runs.csv and run.json alone; writes nothing. Without DIR: every folder of
// docs/findings, to see where the capacity model holds and where it does not.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, runCommand } from '../runner/commands/command-line.js';
import { readResults } from '../runner/results/read-results.js';
import { summarizeCells } from '../runner/report/summary.js';
import { buildModelTables, formatModelTable } from '../runner/report/model-table.js';
import { escapeMarkdown } from '../runner/report/markdown.js';

const FINDINGS = fileURLToPath(new URL('../docs/findings', import.meta.url));
const USAGE = `Usage: npm run model -- [DIR...]

  DIR          a results folder written by \`npm run matrix\` (default: every folder of docs/findings)
  -h, --help   this text`;

export function main(argv, { stdout = process.stdout } = {}) {
  const { values, positionals } = parseCommandLine(argv, {
    allowPositionals: true,
    usage: USAGE,
    options: { help: { type: 'boolean', short: 'h', default: false } },
  });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const dirs = positionals.length ? positionals.map((dir) => resolve(dir)) : listFolders(FINDINGS);
  for (const dir of dirs) stdout.write(`${formatFolder(dir).join('\n')}\n\n`);
  return 0;
}

function listFolders(root) {
  return readdirSync(root)
    .map((name) => join(root, name))
    .filter((dir) => existsSync(join(dir, 'runs.csv')))
    .sort();
}

/** One folder's tables as Markdown: a heading, each workload's calibration and its cells. */
export function formatFolder(dir) {
  const results = readResults(dir);
  const summary = summarizeCells(results);
  const report = { summary, axes: results.axes, workloads: [...new Set(summary.cells.map((cell) => cell.workload))] };
  const lines = [`## ${escapeMarkdown(results.info?.experiment ?? dir)}`, ''];
  const tables = buildModelTables(report);
  if (tables.length === 0) return [...lines, '(no model: no run.json parameters, or a workload or load without one)'];
  for (const table of tables) {
    const { header, body } = formatModelTable(table);
    const line = (cells) => `| ${cells.map((cell) => escapeMarkdown(String(cell))).join(' | ')} |`;
    lines.push(
      ...table.calibrations.map((text) => `${escapeMarkdown(table.workload)} calibration: ${escapeMarkdown(text)}`),
      '',
    );
    lines.push(line(header), `|${header.map(() => ' --- ').join('|')}|`, ...body.map(line), '');
  }
  return lines;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) runCommand(main);
