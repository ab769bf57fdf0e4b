// --resume DIR: what the folder already holds, and whether the current config may add to it.
// Mixing rows of two different configs in one runs.csv would make every statistic a lie, so any
// difference in the experiment or its cells is a refusal, not a warning. Columns added since the folder was
// written are not: its rows get them empty (results/output-files.js); a column no longer written is.
import { existsSync, readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { LabError } from '../errors.js';
import { EXPERIMENT_DEFAULTS } from '../config/defaults.js';
import { TASK_COLUMNS } from '../domain/columns.js';
import { computeCellId } from '../cells/cell-id.js';
import { formatRunKey } from '../plan/plan-runs.js';
import { droppedColumns, readHeader } from './csv.js';
import { readCsv } from './read-results.js';
import { readRunInfo } from './read-run-info.js';

export function readResumeState(dir) {
  const infoPath = join(dir, 'run.json');
  if (!existsSync(infoPath)) {
    throw new LabError('ERR_USAGE', `${dir} is not a results folder: it has no run.json`, {
      hint: 'pass the folder a matrix wrote, e.g. --resume results/pool-vs-cores-20261122T051500Z',
    });
  }
  const info = readRunInfo(dir);
  const runsPath = join(dir, 'runs.csv');
  repairCsvTail(runsPath);
  repairCsvTail(join(dir, 'tasks.csv'));
  const runs = existsSync(runsPath) ? readCsv(runsPath) : { rows: [], columns: [] };
  const tasksPath = join(dir, 'tasks.csv');
  const taskHeader = existsSync(tasksPath) ? readHeader(readFileSync(tasksPath, 'utf8')) : null;
  const done = new Set(runs.rows.map(formatRunKey));
  return { dir, info, rows: runs.rows, header: runs.columns.length > 0 ? runs.columns : null, taskHeader, done };
}

/** Throws ERR_RESUME_MISMATCH unless the plan is the one that made the folder. */
export function checkResumable(plan, state, columns, taskColumns = TASK_COLUMNS) {
  const { info } = state;
  const differences = [];
  const now = JSON.parse(JSON.stringify(plan.experiment));
  // A key added since the folder was written (disturbed_above, max_reruns) is taken at its default: its rows
  // predate the key (no interference figures: never disturbed), so only a value set on purpose is a change.
  const then = (key) => (info.config && key in info.config ? info.config[key] : EXPERIMENT_DEFAULTS[key]) ?? null;
  for (const key of new Set([...Object.keys(now), ...Object.keys(info.config ?? {})])) {
    if (computeCellId(now[key] ?? null) !== computeCellId(then(key))) differences.push(`\`${key}\` changed`);
  }
  const cellsNow = plan.cells
    .map((cell) => cell.cell)
    .sort()
    .join();
  const cellsThen = (info.cells ?? [])
    .map((cell) => cell.cell)
    .sort()
    .join();
  if (differences.length === 0 && cellsNow !== cellsThen)
    differences.push('the cells differ (a default such as the Node.js version changed)');
  for (const [file, header, now] of [
    ['runs.csv', state.header, columns],
    ['tasks.csv', state.taskHeader, taskColumns],
  ]) {
    const dropped = droppedColumns(header, now);
    if (dropped.length > 0)
      differences.push(`${file} has columns this version no longer writes: ${dropped.join(', ')}`);
  }
  if (differences.length > 0) {
    throw new LabError(
      'ERR_RESUME_MISMATCH',
      `cannot resume experiment ${info.experiment}: the config no longer matches the one recorded in run.json (${differences.join('; ')})`,
      {
        hint: 'resuming would mix results of two configs; restore the config as it was, or start a new results folder without --resume',
      },
    );
  }
}

// A power cut can leave a half-written last line; rows are fsync'ed one by one, so everything up
// to the last line break is whole. Cut the rest off before appending after it.
function repairCsvTail(path) {
  if (!existsSync(path)) return;
  const text = readFileSync(path, 'utf8');
  const lastBreak = text.lastIndexOf('\n');
  if (lastBreak !== text.length - 1) truncateSync(path, Buffer.byteLength(text.slice(0, lastBreak + 1)));
}
