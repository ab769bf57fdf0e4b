// The earlier results folders a plan's estimate starts from (estimate/estimate.js), most relevant first: the folder
// being resumed, else the newest folder of the same experiment; then the other folders under the results root
// (results/<experiment>-<UTC stamp>, where `run` puts them), newest first; then the run times shipped with the
// package. Each is read into run times per cell and calibrations per kind of work (estimate/run-times.js).
import path from 'node:path';
import { readShippedRunTimes } from '../estimate/estimate.js';
import { summarizeRunTimes } from '../estimate/run-times.js';
import { listResultsFolders } from '../results/results-folders.js';
import { readRunInfo } from '../results/read-run-info.js';

// Reading a folder is a CSV parse: enough of the newest ones to know this host, not a whole archive.
const MOST_OTHER_FOLDERS = 12;

/**
 * @param {string} experiment  its name
 * @param {{ resultsRoot: string, resumed?: { dir: string, rows: object[], info: object }|null }} where
 * @returns {Promise<object[]>}  run-times.js summaries, most relevant first (the shipped figures last, `shipped`)
 */
export async function readPreviousRunTimes(experiment, { resultsRoot, resumed }) {
  const folders = listResultsFolders(resultsRoot);
  const own = resumed?.rows.length > 0 ? resumed.dir : folders.find((folder) => folder.experiment === experiment)?.dir;
  const others = folders
    .map((folder) => folder.dir)
    .filter((dir) => dir !== own)
    .slice(0, MOST_OTHER_FOLDERS);
  const sources = [];
  if (own || others.length > 0) {
    // Loaded only when there is a folder to read: a first plan does not pay for the CSV parser.
    const { readCsv } = await import('../results/read-results.js');
    // A damaged earlier folder only leaves its run times out of the estimate: `plan` is not about it.
    const readRows = (dir) => {
      try {
        return readCsv(path.join(dir, 'runs.csv')).rows;
      } catch {
        return [];
      }
    };
    if (own) {
      const rows = resumed?.rows.length > 0 ? resumed.rows : readRows(own);
      sources.push(summarizeRunTimes({ dir: own, rows, info: resumed?.info ?? readInfo(own) }));
    }
    for (const dir of others) sources.push(summarizeRunTimes({ dir, rows: readRows(dir), info: readInfo(dir) }));
  }
  const shipped = readShippedRunTimes();
  return [...sources.filter(hasFigures), ...(shipped ? [shipped] : [])];
}

function readInfo(dir) {
  try {
    return readRunInfo(dir);
  } catch {
    return null;
  }
}

function hasFigures({ cells, groups }) {
  return Object.keys(cells).length > 0 || Object.keys(groups).length > 0;
}
