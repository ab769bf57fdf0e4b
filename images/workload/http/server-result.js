// The http server's result line: the common fields (result.js) over the measured period, and the
// server-side http metrics. The load generator's numbers are added by the runner, which combines
// both containers' lines into one row.

import { describeResources, round } from '../result.js';
import { combineLoopDelays } from './event-loop.js';

/**
 * @param {{ served: (number|null)[], cpuSeconds?: (number|null)[] }} window  served: each process's GET /work requests
 *   finished in the period; cpuSeconds: the container's CPU ms second by second
 */
export function buildServerResult({
  t0,
  readyAt,
  startAt,
  stopAt,
  drainMs,
  seen,
  counters,
  memoryPeakBytes,
  host = null,
  threadCounts,
  loops,
  usages,
  served,
  cpuSeconds = [],
}) {
  const loop = combineLoopDelays(loops);
  return {
    workload: 'http',
    wall_ms: round(stopAt - startAt),
    // Server start-up: forks, worker threads and work preparation until every process listens.
    setup_ms: round(readyAt - t0),
    tasks: [],
    ...describeResources({ seen, threadCounts, counters, memoryPeakBytes, usages, host }),
    metrics: {
      event_loop_delay_mean_ms: loop.mean_ms === null ? null : round(loop.mean_ms),
      event_loop_delay_p99_ms: loop.p99_ms === null ? null : round(loop.p99_ms),
      warmup_drain_ms: round(drainMs),
      requests_served: served.includes(null) ? null : served.reduce((total, count) => total + count, 0),
    },
    // The container's CPU ms in each second of the period (cpu-series.js), for the per-second rows.
    cpu_seconds: cpuSeconds.map((ms) => (ms === null ? null : round(ms))),
  };
}
