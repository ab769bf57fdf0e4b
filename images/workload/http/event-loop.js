// Event-loop delay of one process over the measured period (perf_hooks.monitorEventLoopDelay). The
// histogram records the time between timer ticks, resolution included; like @fastify/under-pressure,
// the resolution is taken off, so an idle loop reads ≈ 0 ms rather than ≈ 10 ms.

import { monitorEventLoopDelay } from 'node:perf_hooks';

const RESOLUTION_MS = 10;
const NS_PER_MS = 1e6;

export function createLoopDelayMonitor() {
  let histogram = null;
  return {
    start() {
      histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
      histogram.enable();
    },
    /** @returns {{ count: number, mean_ms: number|null, p99_ms: number|null }} */
    stop() {
      if (!histogram) return { count: 0, mean_ms: null, p99_ms: null };
      histogram.disable();
      const { count } = histogram;
      const summary = {
        count,
        mean_ms: count > 0 ? Math.max(0, histogram.mean / NS_PER_MS - RESOLUTION_MS) : null,
        p99_ms: count > 0 ? Math.max(0, histogram.percentile(99) / NS_PER_MS - RESOLUTION_MS) : null,
      };
      histogram = null;
      return summary;
    },
  };
}

/**
 * Several processes (cluster) → one reading: the mean weighted by each loop's tick count, and the
 * worst process's p99 (percentiles of separate histograms cannot be merged exactly).
 */
export function combineLoopDelays(summaries) {
  const measured = summaries.filter((summary) => summary.count > 0);
  if (measured.length === 0) return { mean_ms: null, p99_ms: null };
  const count = measured.reduce((total, summary) => total + summary.count, 0);
  return {
    mean_ms: measured.reduce((total, summary) => total + summary.mean_ms * summary.count, 0) / count,
    p99_ms: Math.max(...measured.map((summary) => summary.p99_ms)),
  };
}
