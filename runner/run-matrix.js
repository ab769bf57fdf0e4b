// The loop: for each planned run, execute it, turn what came back into rows, append them at once.
// A failed run is a row like any other; only a lost engine or an abort (Ctrl-C) ends the loop early.
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { planColumns, toRows, TASK_COLUMNS } from './collect/to-rows.js';
import { CsvAppender } from './results/output-files.js';

/**
 * @param {object} options
 * @param {object} options.plan  one experiment's plan (runs, cells, envAxes, experiment, random)
 * @param {{ execute(run, opts): Promise<object> }} options.executor
 * @param {string} options.outDir
 * @param {Set<string>} [options.done]          runKeys already in runs.csv (resume): not run again
 * @param {object[]} [options.previousRows]     their rows, for adaptive repetitions
 * @param {AbortSignal} [options.signal]
 * @param {boolean} [options.failFast]
 * @param {EventEmitter} [options.events]  'run-start' / 'run-end' for the progress display
 * @returns {Promise<{ total: number, done: number, ok: number, failed: number, stoppedBy: null|'abort'|'fail-fast' }>}
 */
export async function runMatrix({ plan, executor, outDir, done = new Set(), previousRows = [], signal, failFast = false, events = new EventEmitter() }) {
  const runsCsv = new CsvAppender(join(outDir, 'runs.csv'), planColumns(plan));
  const tasksCsv = new CsvAppender(join(outDir, 'tasks.csv'), TASK_COLUMNS);
  const rows = [...previousRows];
  const queue = plan.runs.filter((run) => !done.has(run.runKey));
  const summary = { total: queue.length, done: 0, ok: 0, failed: 0, stoppedBy: null };

  // Returns false when the matrix must stop.
  const execute = async (run) => {
    if (signal?.aborted) return stop('abort');
    events.emit('run-start', { run, index: summary.done, total: summary.total });
    const raw = await executor.execute(run, { signal });
    // An aborted run is not a measurement: it gets no row, and --resume runs it again.
    if (raw.aborted) return stop('abort');
    const { row, tasks, status } = toRows(run, raw);
    runsCsv.append([row]);
    tasksCsv.append(tasks);
    rows.push(row);
    summary.done++;
    summary[status === 'ok' ? 'ok' : 'failed']++;
    events.emit('run-end', { run, index: summary.done - 1, total: summary.total, row });
    return failFast && status !== 'ok' ? stop('fail-fast') : true;
  };
  const stop = (reason) => {
    summary.stoppedBy = reason;
    return false;
  };

  try {
    for (const run of queue) if (!(await execute(run))) return summary;
    // Loaded once the planned runs are done: its statistics modules are not on the way to the first container.
    const { planAdaptiveRound } = await import('./plan/adaptive.js');
    for (let extra = planAdaptiveRound(plan, rows); extra.length > 0; extra = planAdaptiveRound(plan, rows)) {
      summary.total += extra.length;
      for (const run of extra) if (!(await execute(run))) return summary;
    }
    return summary;
  } finally {
    runsCsv.close();
    tasksCsv.close();
  }
}
