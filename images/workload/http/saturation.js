// Is the load generator, not the server, the limit of this run? autocannon and the open loop run on one thread, so
// they can use at most one CPU whatever their allowance; when it is near that, or when it cannot keep the asked
// number of requests in flight (or, open, its schedule), the numbers describe the loader and the row says so.

export const THRESHOLDS = {
  // Share of the CPU the loader can use (its quota or cpuset, at most one thread's worth).
  cpu: 0.9,
  // Share of the measured period the loader's cgroup was throttled.
  throttled: 0.1,
  // Achieved requests in flight (Little's law: rate × mean latency) against connections × pipelining.
  concurrency: 0.75,
  // Achieved rate against a fixed `rate`.
  rate: 0.9,
  // An open loop's p99 of how late it sent (ms), unless `open.max_lag_ms` says otherwise: its latencies run from
  // the due time, so they count the lag.
  lagP99Ms: 2,
};

/**
 * @param {object} reading
 * @param {number} reading.periodMs        the measured period
 * @param {number|null} reading.cpuMs      loader CPU time (user + system) over it
 * @param {number} reading.allowanceCpus   CPUs the loader's container may use (quota, cpuset)
 * @param {number|null} reading.throttledMs
 * @param {number} reading.requestsPerSec  achieved
 * @param {number|null} reading.meanLatencyMs
 * @param {number} reading.connections
 * @param {number} reading.pipelining
 * @param {number} [reading.rate]          asked fixed rate, if any
 * @returns {{ saturated: boolean, reasons: string[], cpu_share: number|null, achieved_concurrency: number|null,
 *   asked_concurrency: number }}
 */
export function judgeLoaderSaturation({
  periodMs,
  cpuMs,
  allowanceCpus,
  throttledMs,
  requestsPerSec,
  meanLatencyMs,
  connections,
  pipelining,
  rate,
}) {
  const reasons = [];
  const usable = Math.min(allowanceCpus, 1);
  const cpuShare = cpuMs === null || periodMs <= 0 ? null : cpuMs / (periodMs * usable);
  if (cpuShare !== null && cpuShare >= THRESHOLDS.cpu) {
    reasons.push(`loader CPU at ${percent(cpuShare)} of the ${usable} CPU it can use`);
  }
  if (throttledMs !== null && periodMs > 0 && throttledMs / periodMs >= THRESHOLDS.throttled) {
    reasons.push(`loader throttled for ${percent(throttledMs / periodMs)} of the measured period`);
  }
  const asked = connections * pipelining;
  const achieved = meanLatencyMs === null ? null : (requestsPerSec * meanLatencyMs) / 1000;
  if (rate === undefined) {
    if (achieved !== null && achieved < THRESHOLDS.concurrency * asked) {
      reasons.push(`only ${achieved.toFixed(1)} of ${asked} requests in flight on average`);
    }
  } else if (
    requestsPerSec < THRESHOLDS.rate * rate &&
    achieved !== null &&
    achieved < THRESHOLDS.concurrency * asked
  ) {
    reasons.push(`sent ${Math.round(requestsPerSec)} of the ${rate} req/s asked with connections to spare`);
  }
  return {
    saturated: reasons.length > 0,
    reasons,
    cpu_share: cpuShare,
    achieved_concurrency: achieved,
    asked_concurrency: asked,
  };
}

function percent(share) {
  return `${Math.round(share * 100)}%`;
}

/**
 * Did an open loop keep its schedule? A rule on the generator alone, fixed before any run: its p99 send lag, a request
 * that found every connection busy, or a saturated loader (above). Never the latencies it measured: a slow server
 * is what an open loop is there to show, and it delays no send.
 * @param {{ saturation: { saturated: boolean, reasons: string[] }, lagP99Ms: number|null, queued: number,
 *   connections: number, maxLagMs?: number }} reading  maxLagMs: `open.max_lag_ms` (default the threshold's 2 ms)
 * @returns {{ behind: boolean, reasons: string[] }}
 */
export function judgeOpenLoop({ saturation, lagP99Ms, queued, connections, maxLagMs = THRESHOLDS.lagP99Ms }) {
  const reasons = [...saturation.reasons];
  if (lagP99Ms !== null && lagP99Ms > maxLagMs) {
    reasons.push(`sent late: p99 ${lagP99Ms.toFixed(1)} ms after due (more than ${maxLagMs} ms)`);
  }
  if (queued > 0) reasons.push(`${queued} requests waited for one of the ${connections} connections`);
  return { behind: reasons.length > 0, reasons };
}
