// The run under the API's run() (api/run.js): plans in, results folders out. For each experiment: write run.json
// (merged with the recorded one on --resume), run its matrix on the lanes it is handed, write run.json again with
// the summary, then the reports. It prints nothing and never exits: it reports through `events` and its return
// value, so the API, a script or a test (on the fake backend's lanes, backend/fake.js) drive it alike.
import { EventEmitter } from 'node:events';
import { resolve } from 'node:path';
import { LabError } from '../errors.js';
import { runMatrix } from './run-matrix.js';
import { buildRunInfo } from '../results/run-info.js';
import { buildClaimsRecord, CLAIMS_RECORD } from '../verdicts/claim-hash.js';
import { defaultOutputDir, prepareOutputDir, writeJson } from '../results/output-files.js';
import { explainWriteFailure, isWriteFailure } from '../results/write-failure.js';

/**
 * @typedef {object} Job  one experiment to run and where its rows go
 * @property {object} plan               one experiment's plan (plan/plan-runs.js)
 * @property {string} outDir             its results folder, created and writable
 * @property {Set<string>} done          runKeys already in runs.csv (resume)
 * @property {object[]} previousRows     their rows, typed (results/read-results.js)
 * @property {object} [info]             the run.json a resumed folder holds
 */

/**
 * The results folder of every plan, created now so an unwritable path fails before any container starts.
 * @param {object} options
 * @param {object[]} options.plans
 * @param {string} [options.out]          --out: the folder (one experiment) or the parent (several)
 * @param {string} options.resultsRoot    default parent: results/<experiment>-<UTC timestamp>
 * @param {object} [options.resumed]      results/resume.js readResumeState(dir)
 * @returns {Job[]}
 */
export function prepareJobs({ plans, out, resultsRoot, resumed, startedAt = new Date() }) {
  return plans.map((plan) => {
    if (resumed)
      return {
        plan,
        outDir: prepareOutputDir(resumed.dir),
        done: resumed.done,
        previousRows: resumed.rows,
        info: resumed.info,
      };
    return {
      plan,
      outDir: prepareOutputDir(chooseOutputDir({ out, plan, count: plans.length, resultsRoot, startedAt })),
      done: new Set(),
      previousRows: [],
    };
  });
}

function chooseOutputDir({ out, plan, count, resultsRoot, startedAt }) {
  if (out && count === 1) return resolve(out);
  if (out) return resolve(out, plan.experiment.name);
  return defaultOutputDir(resultsRoot, plan.experiment.name, startedAt);
}

/**
 * @param {object} options
 * @param {Job[]} options.jobs
 * @param {import('../backend/contract.js').Lane[]} options.lanes  every engine's slots (docker/engine-set.js), or
 *   a backend's one lane (backend/contract.js createLane); a lane whose engine is lost is dropped for the rest of the
 *   experiments
 * @param {object} options.context  what run.json records besides the plan: { config, engine, images, project, argv,
 *   seed }
 * @param {AbortSignal} [options.signal]  abort: start no new run, stop the current one (it gets no row)
 * @param {boolean} [options.failFast]
 * @param {EventEmitter} [options.events]  'experiment-start' { plan, outDir, pending }, 'run-start' and 'run-end'
 *   (run-matrix.js), 'reports' { outDir, files, verdicts, advice, results }, 'reports-failed' { outDir, error },
 *   'experiment-end' { plan, outDir, summary }, 'engine-lost' { engine, error }
 * @returns {Promise<{ experiments: { plan: object, outDir: string, summary: object, results: object|null }[],
 *   stoppedBy: null|'abort'|'fail-fast'|'engine-lost',
 *   anyFailed: boolean, lostEngines: Map<string, Error> }>}  engine-lost: runs left that no remaining engine may take
 */
export async function runExperiments({ jobs, lanes, context, signal, failFast = false, events = new EventEmitter() }) {
  const experiments = [];
  let anyFailed = false;
  const lostEngines = new Map();
  const onEngineLost = (engine, error) => {
    lostEngines.set(engine, error);
    events.emit('engine-lost', { engine, error });
  };
  for (const { plan, outDir, done, previousRows, info: recorded } of jobs) {
    const fresh = buildRunInfo({ plan, ...context, startedAt: new Date() });
    // A resumed folder keeps its first start time and config; each resume is noted beside them.
    const info = recorded
      ? {
          ...recorded,
          images: fresh.images,
          resumed: [
            ...(recorded.resumed ?? []),
            { at: fresh.started_at, argv: context.argv, project: context.project },
          ],
        }
      : fresh;
    // A fresh folder has no run.json to resume from until this write succeeds.
    writeInfo(outDir, info, { rowsKept: previousRows.length, resumable: Boolean(recorded) });
    // The claims the runs are made for, fixed before the first of them (a resume keeps the first start's record).
    if (!recorded)
      writeInfo(outDir, buildClaimsRecord(plan.experiment.claims, info.started_at), {
        rowsKept: previousRows.length,
        resumable: true,
        name: CLAIMS_RECORD,
      });
    events.emit('experiment-start', { plan, outDir, pending: plan.runs.length - done.size });
    let summary;
    try {
      const live = lanes.filter((lane) => !lostEngines.has(lane.engine));
      summary = await runMatrix({
        plan,
        lanes: live,
        outDir,
        done,
        previousRows,
        signal,
        failFast,
        events,
        onEngineLost,
      });
    } catch (error) {
      // A write failure says already what to do (results/write-failure.js).
      if (error instanceof LabError && !isWriteFailure(error))
        error.hint = `${error.hint ?? ''}\n  resume with: node-threads-lab run --resume ${outDir}`.trim();
      throw error;
    }
    writeInfo(
      outDir,
      { ...info, finished_at: new Date().toISOString(), summary },
      { rowsKept: previousRows.length + summary.done, resumable: true },
    );
    const results = await writeReportsSafely(outDir, events);
    events.emit('experiment-end', { plan, outDir, summary });
    experiments.push({ plan, outDir, summary, results });
    anyFailed ||= summary.failed > 0;
    if (summary.stoppedBy) return { experiments, stoppedBy: summary.stoppedBy, anyFailed, lostEngines };
    if (summary.not_run > 0) return { experiments, stoppedBy: 'engine-lost', anyFailed, lostEngines };
  }
  return { experiments, stoppedBy: null, anyFailed, lostEngines };
}

function writeInfo(outDir, info, { name = 'run.json', ...state }) {
  try {
    writeJson(outDir, name, info);
  } catch (error) {
    throw isWriteFailure(error) ? explainWriteFailure(error, { outDir, ...state }) : error;
  }
}

// The rows are the measurement; a report that cannot be drawn must not turn a finished matrix into an error.
// Loaded when a matrix is done: the report modules are not on the way to the first container.
// Resolves to what results.json holds, or null when the reports failed.
async function writeReportsSafely(outDir, events) {
  try {
    const { writeReports } = await import('../report/write-reports.js');
    const { files, report, results } = writeReports(outDir);
    events.emit('reports', {
      outDir,
      files,
      verdicts: report.verdicts,
      advice: report.advice,
      capacity: report.capacity,
      results,
    });
    return results;
  } catch (error) {
    events.emit('reports-failed', { outDir, error });
    return null;
  }
}
