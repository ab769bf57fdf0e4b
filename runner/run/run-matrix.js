// The loop: each planned run goes to a free lane (an engine's slot; one lane by default), what came
// back becomes rows, appended at once. A failed run is a row like any other; an abort (Ctrl-C) or
// fail-fast hands out no further run; a lost engine's run in flight gets no row and goes to the others.
// A row that cannot be written (a full disk) stops the matrix: the runs in flight are stopped (their
// containers removed), every row written before stays, and the error says what to do.
// Which runs make the next round is rounds/schedule.js's to say (planned rounds, re-runs, adaptive rounds); when
// runs keep being disturbed, the busy gate waits for a quiet host before the next (busy-gate.js).
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { planColumns, TASK_COLUMNS } from '../domain/columns.js';
import { toRows } from '../collect/to-rows.js';
import { createLaneAssigner } from './assign-lanes.js';
import { CsvAppender } from '../results/output-files.js';
import { dispatchRuns } from './dispatch-runs.js';
import { explainWriteFailure, isWriteFailure } from '../results/write-failure.js';
import { planNextRound } from '../rounds/schedule.js';
import { createBusyGate } from './busy-gate.js';

/**
 * @param {object} options
 * @param {object} options.plan  one experiment's plan (runs, cells, envAxes, experiment, random)
 * @param {import('../backend/contract.js').Lane[]} options.lanes  where runs go: every engine's slots
 *   (docker/engine-set.js), or one backend's one lane (backend/contract.js createLane)
 * @param {(engine: string, error: Error) => void} [options.onEngineLost]
 * @param {string} options.outDir
 * @param {Set<string>} [options.done]          runKeys already in runs.csv (resume): not run again
 * @param {object[]} [options.previousRows]     their rows, for adaptive repetitions
 * @param {AbortSignal} [options.signal]
 * @param {boolean} [options.failFast]
 * @param {EventEmitter} [options.events]  'run-start' / 'run-end' for the progress display, 'round-start' { kind, runs
 *   },
 *   'busy-wait' (busy-gate.js)
 * @returns {Promise<{ total: number, done: number, ok: number, failed: number, disturbed: number, reruns: number,
 *   stoppedBy: null|'abort'|'fail-fast', lost_engines: string[], not_run: number, placements: object,
 *   busy_wait_ms: number, busy_waits: number, busy_runs: number }>}
 *   placements: runKey → `engine#slot` it ran on; disturbed: this invocation's runs marked disturbed (warm-ups aside),
 *   reruns: the runs it made in place of disturbed ones; busy_*: how long it waited for a quiet host, how often,
 *   and how many runs in a row-counting sense came out disturbed (busy-gate.js)
 */
export async function runMatrix({
  plan,
  lanes,
  outDir,
  done = new Set(),
  previousRows = [],
  signal,
  failFast = false,
  events = new EventEmitter(),
  onEngineLost,
}) {
  const matrix = prepareMatrix({ plan, lanes, outDir, previousRows, signal, events });
  try {
    await runRounds(matrix, { done, failFast, onEngineLost });
    return matrix.summary;
  } catch (error) {
    throw matrix.fail(error);
  } finally {
    finishMatrix(matrix);
  }
}

/**
 * Prepare: runs.csv and tasks.csv opened for appending, the summary at zero, the lane assigner and the busy gate
 * made. `matrix` is the loop's state, which the rounds and each run then update.
 */
function prepareMatrix({ plan, lanes, outDir, previousRows, signal, events }) {
  const rows = [...previousRows];
  const fail = (error) =>
    isWriteFailure(error) ? explainWriteFailure(error, { outDir, rowsKept: rows.length, resumable: true }) : error;
  let runsCsv;
  let tasksCsv;
  try {
    runsCsv = new CsvAppender(join(outDir, 'runs.csv'), planColumns(plan));
    tasksCsv = new CsvAppender(join(outDir, 'tasks.csv'), TASK_COLUMNS);
  } catch (error) {
    runsCsv?.close();
    throw fail(error);
  }
  // Stops the runs in flight on other lanes when a row cannot be written; Ctrl-C (signal) stops them too.
  const writeFailed = new AbortController();
  const stopRuns = signal ? AbortSignal.any([signal, writeFailed.signal]) : writeFailed.signal;
  return {
    plan,
    lanes,
    events,
    rows,
    fail,
    runsCsv,
    tasksCsv,
    writeFailed,
    stopRuns,
    started: 0,
    lost: new Set(),
    summary: {
      total: 0,
      done: 0,
      ok: 0,
      failed: 0,
      disturbed: 0,
      reruns: 0,
      stoppedBy: null,
      lost_engines: [],
      not_run: 0,
      placements: {},
    },
    preferredLane: createLaneAssigner(lanes, { seed: plan.seed, experimentName: plan.experiment.name }),
    busy: createBusyGate({
      budgetMs: (plan.experiment.busy_wait ?? 0) * 1000,
      disturbedAbove: plan.experiment.disturbed_above,
      events,
      signal: stopRuns,
    }),
  };
}

/**
 * The rounds: each round rounds/schedule.js plans goes out to the lanes of the engines not lost, until no round is
 * left, a run is not run (every engine lost) or the matrix is stopped (abort, fail-fast).
 */
async function runRounds(matrix, { done, failFast, onEngineLost }) {
  const { plan, rows, summary, lost, events } = matrix;
  const work = (run, lane) => executeRun(matrix, run, lane, { failFast });
  for (
    let round = await planNextRound(plan, rows, { done });
    round;
    round = await planNextRound(plan, rows, { done })
  ) {
    summary.total += round.runs.length;
    events.emit('round-start', { kind: round.kind, runs: round.runs, total: summary.total });
    const outcome = await dispatchRuns({
      runs: round.runs,
      lanes: matrix.lanes.filter((lane) => !lost.has(lane.engine)),
      preferredLane: matrix.preferredLane,
      work,
      onEngineLost,
    });
    for (const engine of outcome.lost.keys()) lost.add(engine);
    summary.lost_engines = [...lost];
    summary.not_run += outcome.notRun.length;
    if (outcome.notRun.length > 0 || summary.stoppedBy !== null) return;
  }
}

/** One run on its lane, its row appended and counted. Returns false when no further run may start. */
async function executeRun(matrix, run, lane, { failFast }) {
  const { summary, events, stopRuns, busy } = matrix;
  const lanes = matrix.lanes.length;
  if (stopRuns.aborted) return stopMatrix(summary, 'abort');
  await busy.beforeRun(run, lane);
  if (stopRuns.aborted) return stopMatrix(summary, 'abort');
  events.emit('run-start', { run, index: matrix.started++, total: summary.total, lane, lanes });
  const raw = await lane.execute(run, { signal: stopRuns });
  // An aborted run is not a measurement: it gets no row, and --resume runs it again.
  if (raw.aborted) return stopMatrix(summary, 'abort');
  const { row, tasks, status } = toRows(run, raw);
  try {
    appendRun(matrix.runsCsv, matrix.tasksCsv, row, tasks);
  } catch (error) {
    matrix.writeFailed.abort();
    throw error;
  }
  matrix.rows.push(row);
  busy.afterRun(row);
  summary.placements[run.runKey] = lane.id;
  summary.done++;
  summary[status === 'ok' ? 'ok' : 'failed']++;
  if (row.disturbed === true && !run.warmup) summary.disturbed++;
  if (run.rerunOf !== undefined) summary.reruns++;
  events.emit('run-end', { run, index: summary.done - 1, total: summary.total, row, lane, lanes });
  return failFast && status !== 'ok' ? stopMatrix(summary, 'fail-fast') : true;
}

function stopMatrix(summary, reason) {
  summary.stoppedBy = reason;
  return false;
}

/** Finish: the busy gate's figures in the summary, the output files closed (whatever stopped the loop). */
function finishMatrix({ summary, busy, runsCsv, tasksCsv }) {
  Object.assign(summary, busy.summarize());
  runsCsv.close();
  tasksCsv.close();
}

// A run's tasks, then its row: runs.csv is what --resume reads as done, so a run is in it only with its tasks.
// Tasks whose row could not follow are cut off again.
function appendRun(runsCsv, tasksCsv, row, tasks) {
  const mark = tasksCsv.size;
  tasksCsv.append(tasks);
  try {
    runsCsv.append([row]);
  } catch (error) {
    tasksCsv.truncate(mark);
    throw error;
  }
}
