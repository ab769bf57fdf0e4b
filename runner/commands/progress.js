// What a person watching sees, on stderr: a bar (run k of n, the current cell, elapsed, ETA) on a terminal, plain
// lines otherwise (CI logs, pipes), and one summary line per finished run either way. And what the run is for, on
// stdout, as hyperfine and autocannon print theirs: each experiment's count of runs and folder, its Answers, its
// Advice — so `node-threads-lab run > out` keeps the results and leaves the progress on the terminal.
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { formatAssignments } from '../plan/plan-runs.js';
import { formatAdviceText } from '../report/advice.js';
import { formatCapacityText } from '../report/capacity.js';
import { formatAnswersText } from '../report/answers.js';

const require = createRequire(import.meta.url);

/**
 * Everything a real run reports (docker/session.js, run-experiments.js, run-matrix.js) as lines on `stream`:
 * a progress display per experiment and a line at each milestone. `quiet`: only what went wrong or needs a look
 * (containers removed or shared, an engine lost, reports that failed). `closing`: also each experiment's count
 * line (for --json, whose stdout holds only the document). Returns { stop }.
 */
export function printRunEvents(events, { stream = process.stderr, quiet = false, closing = false } = {}) {
  let progress = null;
  const stopProgress = () => {
    progress?.stop();
    progress = null;
  };
  const write = (line) => stream.write(`${line}\n`);
  // engine: named when the matrix runs on several engines (docker/engine-set.js).
  events.on('orphans', ({ removed, leftAlone, engine }) => {
    if (removed.length > 0)
      write(
        `Removed ${removed.length} container(s) left behind by an earlier run that was killed${engine ? ` on engine ${engine}` : ''}: ${removed.map((o) => o.name ?? o.id.slice(0, 12)).join(', ')}`,
      );
    if (leftAlone > 0)
      write(
        `Note: ${leftAlone} container(s) of another runner still at work share ${engine ? `engine ${engine}` : 'this engine'}; timings may be disturbed.`,
      );
  });
  events.on('engine-lost', ({ engine, error }) => {
    write(
      `\nEngine ${engine} lost: ${error.message}. Its run in flight gets no row and goes to the other engines, if any.`,
    );
  });
  events.on('reports-failed', ({ outDir, error }) => {
    stopProgress();
    write(
      `Could not write the reports (${error.message}); the CSVs are complete. Retry with: node-threads-lab report ${outDir}`,
    );
  });
  if (closing) events.on('experiment-end', (ended) => write(formatExperimentLine(ended)));
  if (quiet) return { stop: stopProgress };
  events.on('image-progress', write);
  events.on('preflight', (line) => write(`preflight: ${line}`));
  events.on('experiment-start', ({ plan, outDir, pending }) => {
    write(`${plan.experiment.name}: ${pending} runs → ${outDir}`);
    progress = attachProgress(events, { stream, label: plan.experiment.name });
  });
  events.on('reports', ({ outDir, files }) => {
    stopProgress();
    write(`reports: ${files.map((file) => file.slice(outDir.length + 1)).join(', ')}`);
  });
  return { stop: stopProgress };
}

/**
 * The results of a run as text on `stream` (stdout), as each experiment ends: its count of runs and where they are,
 * then its Answers, then its Advice (the question a person came with, last).
 */
export function printRunResults(events, { stream = process.stdout } = {}) {
  const write = (line) => stream.write(`${line}\n`);
  const answers = new Map();
  const advice = new Map();
  const capacities = new Map();
  events.on('reports', ({ outDir, verdicts, advice: answered, capacity }) => {
    if (verdicts) answers.set(outDir, formatAnswersText(verdicts));
    if (answered) advice.set(outDir, formatAdviceText(answered));
    if (capacity) capacities.set(outDir, formatCapacityText(capacity));
  });
  events.on('experiment-end', (ended) => {
    const { outDir } = ended;
    write(formatExperimentLine(ended));
    // The advice first: the question a person came with.
    const advised = advice.get(outDir) ?? [];
    if (advised.length)
      write(`Advice (all in advice.csv):\n${advised.map((line) => `  ${line}`.trimEnd()).join('\n')}`);
    const capacity = capacities.get(outDir) ?? [];
    if (capacity.length) write(`Capacity (all in capacity.csv):\n${capacity.map((line) => `  ${line}`).join('\n')}`);
    const lines = answers.get(outDir) ?? [];
    if (lines.length)
      write(
        `Answers (all in verdicts.csv; \`node-threads-lab claims ${outDir}\` to check again):\n${lines.map((line) => `  ${line}`).join('\n')}`,
      );
  });
}

function formatExperimentLine({ plan, outDir, summary }) {
  const disturbed = summary.disturbed ? `; ${summary.disturbed} disturbed, ${summary.reruns} re-run` : '';
  const waited = summary.busy_waits
    ? `; waited ${Math.round(summary.busy_wait_ms / 1000)} s for a quiet host (${summary.busy_waits} time${summary.busy_waits === 1 ? '' : 's'})`
    : '';
  return `${plan.experiment.name}: ${summary.ok} ok, ${summary.failed} not ok, of ${summary.total} → ${join(outDir, 'runs.csv')}${disturbed}${waited}`;
}

export function attachProgress(events, { stream = process.stderr, label = '' } = {}) {
  const interactive = Boolean(stream.isTTY);
  // Only a terminal gets the bar; a pipe or a CI log never loads it (it is CommonJS: required in place).
  const cliProgress = interactive ? require('cli-progress') : null;
  const started = Date.now();
  let bar = null;
  let multibar = null;
  const print = (line) => (multibar ? multibar.log(`${line}\n`) : stream.write(`${line}\n`));

  // With several lanes (engines, slots) each line says where the run goes.
  const where = ({ lane, lanes = 1 }) => (lane && lanes > 1 ? ` on ${lane.id}` : '');
  const onStart = ({ run, index, total, ...at }) => {
    if (interactive && !multibar) {
      multibar = new cliProgress.MultiBar(
        {
          stream,
          format: `${label} [{bar}] {value}/{total} | {duration_formatted} elapsed | ETA {eta_formatted} | {cell}`,
          hideCursor: true,
          clearOnComplete: true,
          etaBuffer: 20,
        },
        cliProgress.Presets.shades_classic,
      );
      bar = multibar.create(total, 0, { cell: '' });
    }
    // Rounds after the planned ones raise the total: the bar follows.
    if (bar && bar.getTotal() !== total) bar.setTotal(total);
    // The bar counts finished runs (run-end); a start only names the cell.
    const rerun =
      (run.arrivalRate === undefined ? '' : ` at ${run.arrivalRate} req/s`) +
      (run.rerunOf === undefined ? '' : ` (re-run of rep ${run.rerunOf}, which was disturbed or behind)`);
    if (bar) bar.update({ cell: `${formatAssignments(run.values)}${rerun}` });
    else
      print(
        `[${index + 1}/${total}] ${elapsed(started)} elapsed, ETA ${eta(started, index, total)}: ${run.experiment} ${formatAssignments(run.values)} rep ${run.repetition}${rerun}${where(at)}`,
      );
  };
  const onEnd = ({ index, total, row, ...at }) => {
    print(`${summarizeRow(row, index, total)}${where(at)}`);
    bar?.update(index + 1);
  };
  const onRound = ({ kind, runs }) => {
    if (kind !== 'planned')
      print(`${label}: ${ROUND_WORDS[kind] ?? kind}: ${runs.length} more run${runs.length === 1 ? '' : 's'}`);
  };
  const onBusy = (event) => print(`${label}: ${formatBusyWait(event)}`);
  events.on('run-start', onStart);
  events.on('run-end', onEnd);
  events.on('round-start', onRound);
  events.on('busy-wait', onBusy);

  return {
    // One display per experiment on a shared emitter: stopping detaches it.
    stop() {
      events.off('run-start', onStart);
      events.off('run-end', onEnd);
      events.off('round-start', onRound);
      events.off('busy-wait', onBusy);
      multibar?.stop();
    },
  };
}

const ROUND_WORDS = {
  rerun: 'a run again in place of each disturbed one',
  adaptive: 'one more round for the questions still open',
  capacity: 'the capacity search: each cell still open at its next rate',
};

/** A wait for a quiet host, in words: why it waits, for how long at most, what each sample saw, how it ended. */
export function formatBusyWait(event) {
  const seconds = (ms) => `${Math.round(ms / 1000)} s`;
  if (event.phase === 'start')
    return (
      `host busy: the last ${event.streak} runs were disturbed (the rest of the host took more than ` +
      `${event.disturbedAbove}% of the CPU time a run was allowed); waiting up to ${seconds(event.leftMs)} for a ` +
      `quiet moment before the next run (\`busy_wait\` sets the bound)`
    );
  if (event.phase === 'sample')
    return event.contendedPct === null
      ? 'host sample: too short to tell'
      : `host sample: others used ${event.otherCpus.toFixed(2)} CPUs, ${Math.round(event.contendedPct)}% of the next run's allowance (${event.quiet ? 'quiet' : 'busy'})`;
  if (event.outcome === 'quiet') return `host quiet after ${seconds(event.waitedMs)}: going on`;
  if (event.outcome === 'no-sample') return 'could not sample the host: going on without waiting';
  if (event.outcome === 'aborted') return 'stopped while waiting for a quiet host';
  return (
    `host still busy after ${seconds(event.waitedMs)} (${seconds(event.totalMs)} of the ${seconds(event.budgetMs)} ` +
    'allowed in all): going on; runs the host disturbs are marked and left out as before'
  );
}

export function summarizeRow(row, index, total) {
  const values = [
    `run ${index + 1}/${total}`,
    row.status,
    row.wall_ms === undefined ? null : `wall ${row.wall_ms} ms`,
    row.throttled_periods ? `throttled ${row.throttled_periods}×/${row.throttled_ms} ms` : null,
    row.disturbed ? `disturbed (interference ${row.interference_pct}%)` : null,
    row.rerun_of === undefined ? null : `re-run of rep ${row.rerun_of}`,
    row.peak_threads === undefined ? null : `threads ${row.peak_threads}`,
    row.error ? `error: ${row.error}` : null,
  ];
  return `${values.filter(Boolean).join(' · ')}  [${row.cell} rep ${row.repetition}]`;
}

function elapsed(since) {
  return formatDuration((Date.now() - since) / 1000);
}

function eta(since, done, total) {
  if (done === 0) return '?';
  return formatDuration(((Date.now() - since) / 1000 / done) * (total - done));
}

function formatDuration(totalSeconds) {
  const seconds = Math.round(totalSeconds);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}
