// A busy host, seen and said. When runs keep coming out disturbed (BUSY_STREAK in a row), something else on the host
// is taking the CPUs the runs need; starting more runs then only makes more runs to leave out. So before the next run
// the gate samples the host (the backend's sampleHost) until that run would not be disturbed — the same rule as
// interference_pct, domain/interference.js — or until the experiment's `busy_wait` seconds are spent, over the
// whole experiment. Every wait is announced with its reason and its bound, and ends with a line: a person never
// wonders whether the tool hangs. Runs after the bound go on and are marked as before.
import { BUSY_STREAK, measureContendedPct } from '../domain/interference.js';

export { BUSY_STREAK };
import { usableCpus } from '../domain/usable-cpus.js';

/** How long one sample of the host lasts: a few of /proc/stat's 10 ms ticks would swamp a shorter one. */
export const SAMPLE_WINDOW_MS = 2000;

/**
 * @param {object} options
 * @param {number} options.budgetMs         the experiment's `busy_wait`, in ms: the most it waits in all
 * @param {number} options.disturbedAbove   the experiment's `disturbed_above`
 * @param {import('node:events').EventEmitter} options.events  'busy-wait' { phase: 'start'|'sample'|'end', … }
 * @param {AbortSignal} [options.signal]
 * @param {() => number} [options.now]
 */
export function createBusyGate({ budgetMs, disturbedAbove, events, signal, now = Date.now }) {
  let streak = 0;
  let waitedMs = 0;
  let waits = 0;
  let busyRuns = 0;

  /** A finished run: its disturbed flag extends or breaks the streak (warm-ups and failed runs say nothing). */
  function afterRun(row) {
    if (row.warmup === true || row.status !== 'ok') return;
    if (row.disturbed === true) {
      streak++;
      busyRuns++;
    } else streak = 0;
  }

  /** Before a run on `lane`: wait while the host would disturb it, within what is left of the budget. */
  async function beforeRun(run, lane) {
    // Not enough left of the budget for one sample: it is spent, and the runs go on without waiting.
    if (streak < BUSY_STREAK || budgetMs - waitedMs < SAMPLE_WINDOW_MS || typeof lane.sampleHost !== 'function') return;
    const started = now();
    waits++;
    events.emit('busy-wait', {
      phase: 'start',
      run,
      streak,
      leftMs: budgetMs - waitedMs,
      disturbedAbove,
    });
    let outcome = 'budget';
    let last = null;
    while (!signal?.aborted) {
      // The bound is a promise the plan printed: a sample starts only if it can end within what is left, and it is
      // cut short (its container stopped) the moment the budget runs out.
      const leftMs = budgetMs - waitedMs - (now() - started);
      if (leftMs < SAMPLE_WINDOW_MS) break;
      const cut = AbortSignal.timeout(Math.max(1, Math.floor(leftMs)));
      const sample = await lane
        .sampleHost({ windowMs: SAMPLE_WINDOW_MS, signal: signal ? AbortSignal.any([signal, cut]) : cut })
        .catch(() => null);
      if (!sample) {
        outcome = cut.aborted ? 'budget' : 'no-sample';
        break;
      }
      last = judgeSample(run, sample, disturbedAbove);
      events.emit('busy-wait', { phase: 'sample', run, ...last });
      if (last.quiet) {
        outcome = 'quiet';
        break;
      }
    }
    const spent = now() - started;
    waitedMs += spent;
    // A host that turned quiet starts a new count; one that stayed busy would only start the next wait at once.
    streak = outcome === 'quiet' ? 0 : streak;
    events.emit('busy-wait', {
      phase: 'end',
      run,
      outcome: signal?.aborted ? 'aborted' : outcome,
      waitedMs: spent,
      totalMs: waitedMs,
      budgetMs,
      last,
    });
  }

  return {
    afterRun,
    beforeRun,
    /** What run.json's summary and the closing lines say of the host. */
    summarize: () => ({ busy_wait_ms: Math.round(waitedMs), busy_waits: waits, busy_runs: busyRuns }),
  };
}

/**
 * Would `run` be disturbed by what the host did in `sample`? The others' CPU time beyond the CPUs the run could not
 * use, as a share of what it would be allowed: the interference_pct rule, asked before the run instead of after.
 * @returns {{ contendedPct: number|null, otherCpus: number, quiet: boolean }}
 */
export function judgeSample(run, sample, disturbedAbove) {
  const allowedCpus = usableCpus({ cpus: run.values.cpus, cpuset: run.values.cpuset }, sample.cpus);
  const contendedPct = measureContendedPct({
    otherCpuMs: sample.cpuMs,
    windowMs: sample.windowMs,
    hostCpus: sample.cpus,
    allowedCpus,
  });
  return {
    contendedPct,
    otherCpus: sample.windowMs > 0 ? sample.cpuMs / sample.windowMs : null,
    quiet: contendedPct !== null && contendedPct <= disturbedAbove,
  };
}
