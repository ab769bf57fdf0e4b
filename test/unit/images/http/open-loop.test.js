import http from 'node:http';
import { createArrivals, runOpenLoop, seededRandom } from '../../../../images/workload/http/open-loop.js';
import { judgeOpenLoop, THRESHOLDS } from '../../../../images/workload/http/saturation.js';

// A local server whose answer comes `delayMs` after each request (a timer, not work: the test host's CPU is not in it),
// or never.
async function startServer(delayMs) {
  const server = http.createServer((request, response) => {
    if (delayMs === null) return;
    setTimeout(() => response.end('ok'), delayMs);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function listDueTimes({ rate, arrivals, durationMs, seed }) {
  const gap = createArrivals({ rate, arrivals, random: seededRandom(seed) });
  const due = [];
  for (let at = gap(); at < durationMs; at += gap()) due.push(at);
  return due;
}

describe('arrivals', () => {
  test('constant: one every 1/rate; poisson: exponential gaps of that mean (seeded)', () => {
    const constant = createArrivals({ rate: 200, arrivals: 'constant' });
    expect([constant(), constant()]).toEqual([5, 5]);
    const gap = createArrivals({ rate: 200, arrivals: 'poisson', random: seededRandom(7) });
    const gaps = Array.from({ length: 100_000 }, gap);
    const mean = gaps.reduce((sum, value) => sum + value, 0) / gaps.length;
    const sd = Math.sqrt(gaps.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (gaps.length - 1));
    // An exponential's standard deviation equals its mean; 100,000 gaps put both within 1%.
    expect(Math.abs(mean / 5 - 1)).toBeLessThan(0.01);
    expect(Math.abs(sd / mean - 1)).toBeLessThan(0.02);
    expect(seededRandom(7)()).toBe(seededRandom(7)());
  });
});

describe('runOpenLoop', () => {
  test('sends every request when it is due, without waiting for answers, and times it from then', async () => {
    const server = await startServer(40);
    const times = [];
    try {
      const options = { rate: 200, arrivals: 'poisson', durationMs: 400, seed: 11 };
      const result = await runOpenLoop({
        origin: server.origin,
        request: { path: '/work' },
        ...options,
        random: seededRandom(options.seed),
        connections: 1000,
        graceMs: 5000,
        recorder: { record: (ms) => times.push(ms) },
      });
      const due = listDueTimes(options);
      expect(result.sent).toBe(due.length);
      expect(result.requests.total).toBe(due.length);
      expect(times).toHaveLength(due.length);
      // Each answer takes 40 ms and one is due every 5 ms on average: several were in flight at once.
      expect(result.peakConnections).toBeGreaterThan(1);
      expect(times.every((ms) => ms > 0)).toBe(true);
      expect(result).toMatchObject({ rate: 200, errors: 0, timeouts: 0, queued: 0 });
    } finally {
      await server.close();
    }
  });

  test('a request that finds every connection busy is counted as queued', async () => {
    const server = await startServer(30);
    try {
      const result = await runOpenLoop({
        origin: server.origin,
        request: { path: '/work' },
        rate: 200,
        arrivals: 'constant',
        durationMs: 100,
        connections: 1,
        graceMs: 5000,
      });
      expect(result.queued).toBeGreaterThan(0);
      expect(result.requests.total).toBe(result.sent);
    } finally {
      await server.close();
    }
  });

  test('answers still missing at the cut are timeouts, timed as at least their wait', async () => {
    const server = await startServer(null);
    const times = [];
    try {
      const result = await runOpenLoop({
        origin: server.origin,
        request: { path: '/work' },
        rate: 50,
        arrivals: 'constant',
        durationMs: 100,
        connections: 100,
        graceMs: 200,
        recorder: { record: (ms) => times.push(ms) },
      });
      // Due at 20, 40, 60 and 80 ms: the first one gap after the start.
      expect(result.sent).toBe(4);
      expect(result).toMatchObject({ timeouts: 4, errors: 4, requests: { total: 0 } });
      // The last was due at 80 ms and cut at 300 ms or later.
      expect(Math.min(...times)).toBeGreaterThanOrEqual(200);
    } finally {
      await server.close();
    }
  });
});

describe('judgeOpenLoop', () => {
  const calm = { saturated: false, reasons: [] };
  test('on schedule: lag within the limit, no request waited for a connection, the loader not saturated', () => {
    expect(judgeOpenLoop({ saturation: calm, lagP99Ms: 0.8, queued: 0, connections: 1000 })).toEqual({
      behind: false,
      reasons: [],
    });
  });

  test("a limit of the run's own (open.max_lag_ms: the capacity search's 5% of the SLO) replaces the 2 ms", () => {
    const late = { saturation: calm, lagP99Ms: 4.8, queued: 0, connections: 1000 };
    expect(judgeOpenLoop(late).behind).toBe(true);
    expect(judgeOpenLoop({ ...late, maxLagMs: 5 }).behind).toBe(false);
    expect(judgeOpenLoop({ ...late, maxLagMs: 4 }).reasons).toEqual([
      'sent late: p99 4.8 ms after due (more than 4 ms)',
    ]);
  });

  test('behind for any one of them, each said', () => {
    expect(
      judgeOpenLoop({ saturation: calm, lagP99Ms: THRESHOLDS.lagP99Ms + 0.1, queued: 0, connections: 1000 }).reasons,
    ).toEqual([expect.stringMatching(/^sent late: p99 2\.1 ms after due/)]);
    expect(judgeOpenLoop({ saturation: calm, lagP99Ms: 1, queued: 3, connections: 10 }).reasons).toEqual([
      '3 requests waited for one of the 10 connections',
    ]);
    const saturated = { saturated: true, reasons: ['loader CPU at 95% of the 1 CPU it can use'] };
    expect(judgeOpenLoop({ saturation: saturated, lagP99Ms: 1, queued: 0, connections: 10 })).toEqual({
      behind: true,
      reasons: saturated.reasons,
    });
  });
});
