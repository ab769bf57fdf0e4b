import { responseQuantile } from '../../../images/workload/lib/md1.js';
import { describeRunSpread, simulateRun } from '../../../scripts/lib/md1-runs.js';
import { createRandom } from '../../../runner/stats/random.js';

const queue = { rate: 0.08, serviceMs: 10 }; // ρ = 0.8

test('a long simulated run reads the stationary M/D/1 percentiles (Erlang, images/workload/lib/md1.js)', () => {
  const responses = simulateRun(queue, { warmupMs: 10_000, measuredMs: 20_000_000 }, createRandom(7)).sort(
    (a, b) => a - b,
  );
  const at = (q) => responses[Math.ceil(q * responses.length) - 1];
  expect(at(0.5) / responseQuantile(0.5, queue)).toBeCloseTo(1, 1);
  expect(at(0.99) / responseQuantile(0.99, queue)).toBeCloseTo(1, 1);
  // Every response is at least the service time, and the arrival rate is the one asked.
  expect(responses[0]).toBeGreaterThanOrEqual(queue.serviceMs);
  expect(responses.length / 20_000_000 / queue.rate).toBeCloseTo(1, 2);
});

test("a 30-second run's p99 spreads far wider than 15% around the stationary p99 at 80% load", () => {
  const stationary = { p50: responseQuantile(0.5, queue), p99: responseQuantile(0.99, queue) };
  const spread = describeRunSpread(queue, { warmupMs: 3000, measuredMs: 30_000 }, stationary, { trials: 300 });
  expect(spread.p99.low).toBeLessThan(stationary.p99 * 0.85);
  expect(spread.p99.high).toBeGreaterThan(stationary.p99 * 1.15);
  expect(spread.p99.withinShare).toBeLessThan(0.8);
  expect(spread.p50.low).toBeLessThanOrEqual(stationary.p50);
  expect(spread.p50.high).toBeGreaterThanOrEqual(stationary.p50);
});
