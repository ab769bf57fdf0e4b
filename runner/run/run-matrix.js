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
  lanes: allLanes,
  outDir,
  done = new Set(),
  previousRows = [],
  signal,
  failFast = false,
  events = new EventEmitter(),
  onEngineLost,
}) {
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
  const summary = {
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
  };
  const preferredLane = createLaneAssigner(allLanes, { seed: plan.seed, experimentName: plan.experiment.name });
  const busy = createBusyGate({
    budgetMs: (plan.experiment.busy_wait ?? 0) * 1000,
    disturbedAbove: plan.experiment.disturbed_above,
    events,
    signal: stopRuns,
  });
  let started = 0;

  // Returns false when no further run may start.
  const execute = async (run, lane) => {
    if (stopRuns.aborted) return stop('abort');
    await busy.beforeRun(run, lane);
    if (stopRuns.aborted) return stop('abort');
    events.emit('run-start', { run, index: started++, total: summary.total, lane, lanes: allLanes.length });
    const raw = await lane.execute(run, { signal: stopRuns });
    // An aborted run is not a measurement: it gets no row, and --resume runs it again.
    if (raw.aborted) return stop('abort');
    const { row, tasks, status } = toRows(run, raw);
    try {
      appendRun(runsCsv, tasksCsv, row, tasks);
    } catch (error) {
      writeFailed.abort();
      throw error;
    }
    rows.push(row);
    busy.afterRun(row);
    summary.placements[run.runKey] = lane.id;
    summary.done++;
    summary[status === 'ok' ? 'ok' : 'failed']++;
    if (row.disturbed === true && !run.warmup) summary.disturbed++;
    if (run.rerunOf !== undefined) summary.reruns++;
    events.emit('run-end', { run, index: summary.done - 1, total: summary.total, row, lane, lanes: allLanes.length });
    return failFast && status !== 'ok' ? stop('fail-fast') : true;
  };
  const stop = (reason) => {
    summary.stoppedBy = reason;
    return false;
  };

  const lost = new Set();
  const dispatch = async (runs) => {
    const outcome = await dispatchRuns({
      runs,
      lanes: allLanes.filter((lane) => !lost.has(lane.engine)),
      preferredLane,
      work: execute,
      onEngineLost,
    });
    for (const engine of outcome.lost.keys()) lost.add(engine);
    summary.lost_engines = [...lost];
    summary.not_run += outcome.notRun.length;
    return outcome.notRun.length === 0 && summary.stoppedBy === null;
  };

  try {
    for (
      let round = await planNextRound(plan, rows, { done });
      round;
      round = await planNextRound(plan, rows, { done })
    ) {
      summary.total += round.runs.length;
      events.emit('round-start', { kind: round.kind, runs: round.runs, total: summary.total });
      if (!(await dispatch(round.runs))) return summary;
    }
    return summary;
  } catch (error) {
    throw fail(error);
  } finally {
    Object.assign(summary, busy.summarize());
    runsCsv.close();
    tasksCsv.close();
  }
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
