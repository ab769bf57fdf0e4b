// The run times a plan's estimate starts from (plan/estimate.js): the folder being resumed, else the newest folder
// of the same experiment under the results root (results/<experiment>-<UTC stamp>, where `run` puts them). A run's
// time is the runner's, from the container's start to its removal (runs.csv's started_at → finished_at); a cell's is
// the median of its runs there, warm-ups and failed runs included (they took their time too).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const STAMPED = /^\d{8}T\d{6}Z$/;

/**
 * @param {string} experiment  its name
 * @param {{ resultsRoot: string, resumed?: { dir: string, rows: object[] }|null }} where
 * @returns {Promise<{ dir: string, perCell: Map<string, { ms: number, n: number }> }|null>}
 */
export async function readPreviousRunTimes(experiment, { resultsRoot, resumed }) {
  const dir = resumed?.rows.length > 0 ? resumed.dir : findNewestFolder(experiment, resultsRoot);
  if (!dir) return null;
  // Loaded only when there is a folder to read: a first plan does not pay for the CSV parser.
  const [{ readCsv }, { median }] = await Promise.all([
    import('../results/read-results.js'),
    import('../stats/statistics.js'),
  ]);
  const rows = resumed?.rows.length > 0 ? resumed.rows : readCsv(path.join(dir, 'runs.csv')).rows;
  return rows.length > 0 ? summarizeRunTimes(dir, rows, median) : null;
}

function findNewestFolder(experiment, root) {
  let names;
  try {
    names = readdirSync(root);
  } catch {
    return null;
  }
  const prefix = `${experiment}-`;
  return (
    names
      .filter((name) => name.startsWith(prefix) && STAMPED.test(name.slice(prefix.length)))
      .sort()
      .reverse()
      .map((name) => path.join(root, name))
      .find((dir) => existsSync(path.join(dir, 'runs.csv'))) ?? null
  );
}

function summarizeRunTimes(dir, rows, median) {
  const byCell = new Map();
  for (const row of rows) {
    const ms = Date.parse(row.finished_at) - Date.parse(row.started_at);
    if (!Number.isFinite(ms) || ms < 0) continue;
    byCell.set(row.cell, [...(byCell.get(row.cell) ?? []), ms]);
  }
  return { dir, perCell: new Map([...byCell].map(([cell, times]) => [cell, { ms: median(times), n: times.length }])) };
}
