// A results folder → summary.csv, verdicts.csv, pivot-*.csv, results.json, report.md and report.html next to its
// CSVs. Reads only what the folder holds (runs.csv, tasks.csv, run.json), so `node-threads-lab report DIR`
// rebuilds them any time.
import { readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { formatCsv, toCell } from '../results/csv.js';
import { readResults } from '../results/read-results.js';
import { buildReport } from './build-report.js';
import { ADVICE_COLUMNS } from './advice.js';
import { CAPACITY_COLUMNS } from './capacity.js';
import { pivotToRecords } from './pivot.js';
import { renderMarkdown } from './markdown.js';
import { renderHtml } from './html.js';
import { buildResultsDocument } from './results-json.js';

/**
 * @param {string} dir  a results folder
 * @param {{ baseline?: object, pivots?: object[], keepDisturbed?: boolean, claims?: object[] }} [options]  override
 *   run.json's config.report; keepDisturbed: count disturbed runs in the statistics (default: as run.json says);
 *   claims: judge these (normalized) claims instead of run.json's (an experiments file's, written after the run)
 * @returns {{ files: string[], report: object, results: object }}  files = paths written, in writing order;
 *   results = what results.json holds
 */
export function writeReports(dir, { keepDisturbed, claims, ...options } = {}) {
  const read = readResults(dir, { keepDisturbed });
  if (claims) read.info = { ...read.info, config: { ...read.info?.config, claims } };
  const report = buildReport(read, options);
  const files = [];
  const write = (name, text) => files.push(writeAtomically(dir, name, text));
  write('summary.csv', formatCsv(report.summary.rows, report.summary.columns, { header: true }));
  write('verdicts.csv', formatCsv(report.verdicts.csvRows, report.verdicts.columns, { header: true }));
  if (report.advice.rows.length > 0)
    write('advice.csv', formatCsv(report.advice.rows, ADVICE_COLUMNS, { header: true }));
  if (report.capacity) write('capacity.csv', formatCsv(report.capacity.rows, CAPACITY_COLUMNS, { header: true }));
  // Pivots from an earlier report with other settings would otherwise look current.
  for (const name of readdirSync(dir)) if (/^pivot-.*\.csv$/.test(name)) rmSync(join(dir, name));
  for (const pivot of report.pivots) write(`${pivot.name}.csv`, formatPivotCsv(pivot));
  const results = buildResultsDocument(report);
  write('results.json', `${JSON.stringify(results, null, 2)}\n`);
  write('report.md', renderMarkdown(report));
  write('report.html', renderHtml(report));
  return { files, report, results };
}

export function formatPivotCsv(pivot) {
  const { header, body } = pivotToRecords(pivot);
  return stringify(
    [header, ...body].map((record) => record.map(toCell)),
    { record_delimiter: 'windows' },
  );
}

function writeAtomically(dir, name, text) {
  const path = join(dir, name);
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
  return path;
}
