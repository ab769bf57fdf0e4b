// A results folder (runs.csv, tasks.csv, run.json, claims.json) → plain rows with typed values: numbers as numbers,
// `warmup` as a boolean, text exactly as the workload wrote it (the spreadsheet guard undone), and the columns
// computed from a whole cell (domain/columns.js RUN_DERIVED_COLUMNS) added to each run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { LabError } from '../errors.js';
import { restoreText } from './csv.js';
import { AXIS_COLUMNS, COLUMN_TYPES, HEAD_COLUMNS, RUN_DERIVED_COLUMNS } from '../domain/columns.js';
import { CLAIMS_RECORD } from '../verdicts/claim-hash.js';

/**
 * @param {string} dir
 * @param {{ keepDisturbed?: boolean }} [options]  keepDisturbed: disturbed runs count in the statistics
 *   (--keep-disturbed);
 *   default: as the matrix that wrote the folder was told (run.json `keep_disturbed`)
 * @returns {{ dir: string, runs: object[], tasks: object[], info: object|null, claimsRecord: object|null,
 *   axes: string[], envAxes: string[], columns: string[], keepDisturbed: boolean }}  claimsRecord: claims.json (null
 *   before it existed); axes = the axis columns in CSV order (built-in ones first, then environment-variable axes)
 */
export function readResults(dir, { keepDisturbed } = {}) {
  const runsPath = join(dir, 'runs.csv');
  if (!existsSync(runsPath)) {
    throw new LabError('ERR_USAGE', `${dir} has no runs.csv`, {
      hint: 'pass a results folder written by `node-threads-lab run` (results/<experiment>-<timestamp>)',
    });
  }
  const { rows: runs, columns } = readCsv(runsPath);
  const tasksPath = join(dir, 'tasks.csv');
  const tasks = existsSync(tasksPath) ? readCsv(tasksPath).rows : [];
  const infoPath = join(dir, 'run.json');
  const info = existsSync(infoPath) ? JSON.parse(readFileSync(infoPath, 'utf8')) : null;
  // The claims the runs were made for, as they started (null: a folder from before claims.json).
  const recordPath = join(dir, CLAIMS_RECORD);
  const claimsRecord = existsSync(recordPath) ? JSON.parse(readFileSync(recordPath, 'utf8')) : null;
  const envAxes = findEnvAxes(columns);
  // `engine` is always a column (where each run went) but an axis only when the matrix made it one.
  const isAxis = (axis) => axis !== 'engine' || info?.config?.matrix?.engine !== undefined;
  const axes = [...AXIS_COLUMNS, ...envAxes].filter((axis) => columns.includes(axis) && isAxis(axis));
  addDerivedColumns(runs);
  return {
    dir,
    runs,
    tasks,
    info,
    claimsRecord,
    axes,
    envAxes,
    columns,
    keepDisturbed: keepDisturbed ?? info?.keep_disturbed === true,
  };
}

function addDerivedColumns(runs) {
  const byCell = new Map();
  for (const run of runs) {
    if (!byCell.has(run.cell)) byCell.set(run.cell, []);
    byCell.get(run.cell).push(run);
  }
  for (const cellRuns of byCell.values()) {
    for (const { name, derive } of RUN_DERIVED_COLUMNS) {
      derive(cellRuns).forEach((value, index) => {
        if (value !== undefined) cellRuns[index][name] = value;
      });
    }
  }
}

// runs.csv puts environment-variable axes between the last built-in axis (`node`, or `engine` in folders
// that have it) and the first measured column, `status`.
function findEnvAxes(columns) {
  const from = Math.max(...AXIS_COLUMNS.map((axis) => columns.indexOf(axis)));
  const to = columns.indexOf('status');
  if (from < 0 || to < 0) return [];
  return columns.slice(from + 1, to).filter((column) => !HEAD_COLUMNS.includes(column) && column !== 'warmup');
}

/** One CSV file → { columns, rows } with typed values: the one reader of runs.csv and tasks.csv. */
export function readCsv(path) {
  let columns = [];
  const rows = parse(readFileSync(path), {
    bom: true,
    columns: (header) => {
      columns = header;
      return header;
    },
    skip_empty_lines: true,
    relax_column_count: true,
  });
  const envAxes = new Set(findEnvAxes(columns));
  return { columns, rows: rows.map((row) => typeRow(row, envAxes)) };
}

function typeRow(row, envAxes) {
  const typed = {};
  for (const [column, text] of Object.entries(row)) {
    if (text === '' || text === undefined) continue;
    const value = restoreText(text);
    if (COLUMN_TYPES.boolean.has(column)) typed[column] = value === 'true';
    else if (COLUMN_TYPES.text.has(column) || envAxes.has(column)) typed[column] = value;
    else typed[column] = toNumber(value);
  }
  return typed;
}

function toNumber(text) {
  const number = Number(text);
  return text.trim() !== '' && Number.isFinite(number) ? number : text;
}
