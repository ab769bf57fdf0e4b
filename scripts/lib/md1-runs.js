// What one run of an exact M/D/1 queue reads: its p50 and p99 over a measured window of a few seconds spread widely
// around the queue's stationary percentiles (images/workload/lib/md1.js), because waits come in busy periods and a
// 30-second window holds few of them. `npm run bench:latency` puts each measured run beside this spread, so that a
// distance from theory is read against what a perfect generator and a perfect M/D/1 server would show in a run as
// long (docs/http.md, "Open-loop load").
import { createRandom } from '../../runner/stats/random.js';

/**
 * Responses (wait + D) of one simulated run: Poisson arrivals at `rate` per ms from an empty queue, those due after
 * `warmupMs` kept until `warmupMs + measuredMs` (the workload's warm-up and measured window). Lindley's recursion.
 */
export function simulateRun({ rate, serviceMs }, { warmupMs, measuredMs }, random) {
  const responses = [];
  let due = 0;
  let free = 0;
  for (;;) {
    due += -Math.log(1 - random()) / rate;
    if (due > warmupMs + measuredMs) return responses;
    free = Math.max(due, free) + serviceMs;
    if (due >= warmupMs) responses.push(free - due);
  }
}

/** The q-quantile of sorted values, as an HDR histogram reports it (the smallest value with at least q below). */
function quantileOf(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * The central `level` range of a run's p50 and p99 over `trials` simulated runs, and the share of those runs whose
 * percentile lies within `within` of the stationary one (how often a perfect setup meets a fixed tolerance).
 * @param {{ p50: number, p99: number }} stationary  the queue's exact percentiles
 */
export function describeRunSpread(
  queue,
  windows,
  stationary,
  { trials = 1000, level = 0.95, within = 0.15, seed = 1 },
) {
  const random = createRandom(seed);
  const runs = Array.from({ length: trials }, () => {
    const responses = simulateRun(queue, windows, random).sort((a, b) => a - b);
    return { p50: quantileOf(responses, 0.5), p99: quantileOf(responses, 0.99) };
  });
  const spread = (key) => {
    const values = runs.map((run) => run[key]).sort((a, b) => a - b);
    const near = values.filter((value) => Math.abs(value / stationary[key] - 1) <= within).length;
    return {
      low: quantileOf(values, (1 - level) / 2),
      high: quantileOf(values, (1 + level) / 2),
      withinShare: near / trials,
    };
  };
  return { p50: spread('p50'), p99: spread('p99') };
}
