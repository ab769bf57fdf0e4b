// The M/D/1 arithmetic against references computed apart from it: mpmath's Erlang sum with the digits its
// cancellation needs, and a simulation with batch-means intervals (scripts/md1-reference.py, its output in
// test/fixtures/md1-reference.json).
import { readFileSync } from 'node:fs';
import { responseMean, responseQuantile, waitingCdf } from '../../../../images/workload/lib/md1.js';

const reference = JSON.parse(readFileSync(new URL('../../../fixtures/md1-reference.json', import.meta.url), 'utf8'));
const queue = (rho) => ({ rate: Number(rho), serviceMs: 1 });

describe('M/D/1', () => {
  test("the waiting time's distribution equals mpmath's to 1e-12", () => {
    for (const [rho, points] of Object.entries(reference.cdf)) {
      for (const [t, expected] of Object.entries(points)) {
        expect(Math.abs(waitingCdf(Number(t), queue(rho)) - expected)).toBeLessThan(1e-12);
      }
    }
  });

  test("response-time quantiles equal mpmath's to 1e-8, ρ = 0.3 … 0.95 (where a float sum has lost every digit)", () => {
    for (const [rho, quantiles] of Object.entries(reference.exact)) {
      for (const [p, expected] of Object.entries(quantiles)) {
        expect(Math.abs(responseQuantile(Number(p), queue(rho)) / expected - 1)).toBeLessThan(1e-8);
      }
    }
  });

  test("and lie within the simulation's 95% intervals", () => {
    for (const [rho, quantiles] of Object.entries(reference.simulated)) {
      for (const [p, { low, high }] of Object.entries(quantiles)) {
        const value = responseQuantile(Number(p), queue(rho));
        expect(value).toBeGreaterThanOrEqual(low);
        expect(value).toBeLessThanOrEqual(high);
      }
    }
  });

  test('scales with D, and the mean is Pollaczek–Khinchine’s', () => {
    const p99 = responseQuantile(0.99, { rate: 0.08, serviceMs: 10 });
    expect(p99 / 10).toBeCloseTo(reference.exact['0.8']['0.99'], 6);
    expect(responseMean({ rate: 0.08, serviceMs: 10 })).toBeCloseTo(10 + 8 / 0.4, 12);
    expect(() => responseQuantile(0.99, { rate: 1, serviceMs: 1 })).toThrow(/no steady state/);
  });
});
