// The loop: for each planned run, execute it, turn what came back into rows, append them at once.
// A failed run is a row like any other; only a lost engine or an abort (Ctrl-C) ends the loop early.
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { toRows, runColumns, TASK_COLUMNS } from './collect/to-rows.js';
import { CsvAppender } from './report/output-files.js';

/**
 * @param {object} options
 * @param {{ runs: import('./plan/plan-runs.js').RunSpec[], envAxes: string[] }} options.plan  one experiment
 * @param {{ execute(run, opts): Promise<object> }} options.executor
 * @param {string} options.outDir
 * @param {AbortSignal} [options.signal]
 * @param {boolean} [options.failFast]
 * @param {EventEmitter} [options.events]  'run-start' / 'run-end' for the progress display
 * @returns {Promise<{ total: number, done: number, ok: number, failed: number, stoppedBy: null|'abort'|'fail-fast' }>}
 */
export async function runMatrix({ plan, executor, outDir, signal, failFast = false, events = new EventEmitter() }) {
  const runsCsv = new CsvAppender(join(outDir, 'runs.csv'), runColumns(plan.envAxes, [...new Set(plan.runs.map((run) => run.workload))]));
  const tasksCsv = new CsvAppender(join(outDir, 'tasks.csv'), TASK_COLUMNS);
  const summary = { total: plan.runs.length, done: 0, ok: 0, failed: 0, stoppedBy: null };
  try {
    for (const [index, run] of plan.runs.entries()) {
      if (signal?.aborted) {
        summary.stoppedBy = 'abort';
        break;
      }
      events.emit('run-start', { run, index, total: plan.runs.length });
      const raw = await executor.execute(run, { signal });
      // An aborted run is not a measurement: it gets no row, and --resume runs it again.
      if (raw.aborted) {
        summary.stoppedBy = 'abort';
        break;
      }
      const { row, tasks, status } = toRows(run, raw);
      runsCsv.append([row]);
      tasksCsv.append(tasks);
      summary.done++;
      if (status === 'ok') summary.ok++;
      else summary.failed++;
      events.emit('run-end', { run, index, total: plan.runs.length, row });
      if (failFast && status !== 'ok') {
        summary.stoppedBy = 'fail-fast';
        break;
      }
    }
  } finally {
    runsCsv.close();
    tasksCsv.close();
  }
  return summary;
}
