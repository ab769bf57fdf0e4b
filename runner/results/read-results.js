// A results folder (runs.csv, tasks.csv, run.json, claims.json) → plain rows with typed values: numbers as numbers,
// `warmup` as a boolean, text exactly as the workload wrote it (the spreadsheet guard undone), and the columns
// computed from a whole cell (domain/columns.js RUN_DERIVED_COLUMNS) added to each run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { LabError } from '../errors.js';
import { restoreText } from './csv.js';
import { damaged, readJsonFile, readRunInfo } from './read-run-info.js';
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
  const info = readRunInfo(dir);
  const { rows: runs, columns } = readCsv(runsPath, { required: RUNS_REQUIRED });
  const tasksPath = join(dir, 'tasks.csv');
  const tasks = existsSync(tasksPath) ? readCsv(tasksPath, { required: TASKS_REQUIRED }).rows : [];
  // The claims the runs were made for, as they started (null: a folder from before claims.json).
  const recordPath = join(dir, CLAIMS_RECORD);
  const claimsRecord = existsSync(recordPath) ? readJsonFile(recordPath) : null;
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

// The columns no reader can do without: a header that lacks one is not a file node-threads-lab wrote.
const RUNS_REQUIRED = ['cell', 'repetition', 'workload', 'status'];
const TASKS_REQUIRED = ['cell', 'repetition'];

/**
 * One CSV file → { columns, rows } with typed values: the one reader of runs.csv and tasks.csv. A file that is not as
 * the runner writes it — a row cut short or with more fields than the header (named by its line), a last line without
 * its line break (a write cut short), a missing column the readers need, text where a number or a boolean belongs —
 * is a LabError naming the file and the line (exit 2): a report must not count a half row as a run.
 * @param {string} path
 * @param {{ required?: string[] }} [options]  required: columns the header must have
 */
export function readCsv(path, { required = [] } = {}) {
  const bytes = readFileSync(path);
  let columns = [];
  let records;
  try {
    records = parse(bytes, {
      bom: true,
      columns: (header) => {
        columns = header;
        return header;
      },
      skip_empty_lines: true,
      info: true,
    });
  } catch (cause) {
    throw damaged(path, describeCsvError(cause), cause, { line: cause.lines });
  }
  const missing = required.filter((column) => !columns.includes(column));
  if (missing.length > 0)
    throw damaged(path, `its header has no ${missing.map((column) => `\`${column}\``).join(', ')} column`, undefined, {
      line: 1,
    });
  const text = bytes.toString('utf8');
  if (records.length > 0 && !text.endsWith('\n')) {
    const line = records.at(-1).info.lines;
    throw damaged(path, `the last row is cut short: line ${line} ends without its line break`, undefined, { line });
  }
  const envAxes = new Set(findEnvAxes(columns));
  const rows = records.map(({ record, info }) => typeRow(record, envAxes, { path, line: info.lines }));
  return { columns, rows };
}

// csv-parse's error codes → what a person reads.
function describeCsvError(cause) {
  if (cause.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH')
    return `line ${cause.lines} has ${cause.record?.length ?? 'another number of'} fields where the header has ${cause.columns?.length ?? 'a different number'}: a ragged or cut-short row`;
  if (cause.code === 'CSV_RECORD_INCONSISTENT_COLUMNS')
    return `line ${cause.lines} has ${cause.record?.length} fields where the header has ${cause.columns?.length}: a ragged or cut-short row`;
  return `line ${cause.lines ?? '?'}: ${cause.message}`;
}

function typeRow(row, envAxes, where) {
  const typed = {};
  for (const [column, text] of Object.entries(row)) {
    if (text === '' || text === undefined) continue;
    const value = restoreText(text);
    if (COLUMN_TYPES.boolean.has(column)) {
      if (value !== 'true' && value !== 'false') throw wrongType(where, column, value, 'true or false');
      typed[column] = value === 'true';
    } else if (COLUMN_TYPES.text.has(column) || envAxes.has(column)) typed[column] = value;
    else {
      typed[column] = toNumber(value);
      if (COLUMN_TYPES.number.has(column) && typeof typed[column] !== 'number')
        throw wrongType(where, column, value, 'a number');
    }
  }
  return typed;
}

function wrongType({ path, line }, column, value, expected) {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return damaged(path, `line ${line}: ${column} is ${JSON.stringify(shown)}, not ${expected}`, undefined, { line });
}

function toNumber(text) {
  const number = Number(text);
  return text.trim() !== '' && Number.isFinite(number) ? number : text;
}
