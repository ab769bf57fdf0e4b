// What the rest of the host did while a run was measured, and which runs a statistic counts. The workload reads
// the host's /proc/stat at the edges of the window whose cgroup counters it reads (images/workload/probe/
// host-cpu.js: `host` in its result line); here the run's own CPU time comes off it. The rule that leaves a run out
// of the statistics reads only these figures and the run's status and flags, never its measured values, so it
// cannot pick the runs that tell the story one wants (docs/report.md).
import { usableCpus } from './usable-cpus.js';

// /proc/stat counts in 10 ms ticks: its CPU time over a window is off by a tick or two either way. Below this much
// allowed CPU time (window × allowed CPUs) that alone would move the share by more than ±4%, so it is not given.
export const MIN_ALLOWED_MS = 500;

/**
 * A run is disturbed above this interference_pct unless the experiment says otherwise (`disturbed_above`): between
 * the two kinds of run docs/statistics/quiet/noise-3 holds — with the host to itself interference_pct stays under 2%
 * (nine runs in ten), while the runs a neighbour slowed by 40–50% read 44–49% (docs/statistics.md, The noise).
 */
export const DEFAULT_DISTURBED_ABOVE = 25;

/** Disturbed runs in a row after which the runner waits for a quiet host (run/busy-gate.js): one could be a blip; three
 * are a neighbour at work. */
export const BUSY_STREAK = 3;

/**
 * host_other_cpu_ms: the whole host's CPU time over the window less the run's own (its cgroup's exact counter, and
 * for http the load generator's, which runs in a second container beside it). /proc/stat counts in 10 ms ticks, so
 * on a quiet host it can come out a few ticks below zero. interference_pct: the part of it that contended with the
 * run — what the others used beyond the CPUs the run could not have used anyway (host CPUs − allowed, over the
 * window) — as a share of the CPU time the run was allowed in the window: window × min(quota, cpuset size, host
 * CPUs). A 0.5-CPU run on 2 CPUs shares nothing with 1.5 CPUs of others; a 2-CPU run shares everything.
 * @param {object|undefined} result  a parsed result line
 * @returns {{ hostOtherCpuMs: number|null, interferencePct: number|null }}  null without a host reading; the share
 *   also null for a window too short for the ticks (MIN_ALLOWED_MS)
 */
export function measureInterference(result) {
  const host = result?.host;
  const own = result?.cpu_total_ms;
  if (!host || !Number.isFinite(host.cpu_ms) || !Number.isFinite(own))
    return { hostOtherCpuMs: null, interferencePct: null };
  const hostOtherCpuMs = host.cpu_ms - own - (result.loader?.cpu_ms ?? 0);
  const allowedCpus = usableCpus(
    { cpus: result.seen?.cpu_quota ?? undefined, cpuset: result.seen?.cpuset ?? undefined },
    host.cpus,
  );
  return {
    hostOtherCpuMs,
    interferencePct: measureContendedPct({
      otherCpuMs: hostOtherCpuMs,
      windowMs: host.window_ms,
      hostCpus: host.cpus,
      allowedCpus,
    }),
  };
}

/**
 * The share of a run's allowed CPU time that others' CPU time contended for: what they used beyond the CPUs the run
 * could not have used anyway. The one rule of interference_pct, also what the runner asks of the host before the next
 * run when runs keep being disturbed (run/busy-gate.js).
 * @returns {number|null}  null for a window too short for /proc/stat's ticks (MIN_ALLOWED_MS) or unknown CPUs
 */
export function measureContendedPct({ otherCpuMs, windowMs, hostCpus, allowedCpus }) {
  if (allowedCpus === null || !Number.isFinite(otherCpuMs)) return null;
  const allowedMs = windowMs * allowedCpus;
  const spareMs = Math.max(0, hostCpus - allowedCpus) * windowMs;
  const contendedMs = Math.max(0, otherCpuMs - spareMs);
  return allowedMs >= MIN_ALLOWED_MS ? (100 * contendedMs) / allowedMs : null;
}

/** A run above the experiment's `disturbed_above` (a share it does not know counts as undisturbed). */
export function isDisturbed(interferencePct, disturbedAbove) {
  return typeof interferencePct === 'number' && typeof disturbedAbove === 'number' && interferencePct > disturbedAbove;
}

/**
 * Whether a run counts in statistics (summary, verdicts, compare, adaptive rounds): it finished ok, was not a
 * warm-up, its open-loop load generator kept its schedule (`loader_behind`: judged on the generator's own send lag
 * and connections, images/workload/http/saturation.js), and it was not disturbed — unless `keepDisturbed`
 * (--keep-disturbed) lets disturbed runs count too.
 * @param {{ status: string, warmup?: boolean, disturbed?: boolean, loader_behind?: boolean }} run  a typed runs.csv row
 */
export function isMeasured(run, { keepDisturbed = false } = {}) {
  return (
    run.status === 'ok' &&
    run.warmup !== true &&
    run.loader_behind !== true &&
    (keepDisturbed || run.disturbed !== true)
  );
}
