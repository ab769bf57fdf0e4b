// Open-loop load: requests at a fixed arrival rate (evenly spaced, or Poisson), each sent when it is due whether or
// not earlier ones were answered, and timed from that due time — what a service's users do, and what wrk2, k6's
// constant-arrival-rate executor and Artillery's arrival phases measure. A closed loop (autocannon) sends the next
// request only when one is answered, so a stalled server also stalls the requests that would have measured the
// stall (coordinated omission). Each request takes a free connection of an undici Pool, which opens one more while
// fewer than `connections` are open: the generator never waits for an answer before sending. How late it sent (its
// own event loop, timers of 1 ms resolution) is measured per request, and how many requests found every connection
// busy; load-generator.js judges from those two whether the run kept its schedule (loader_behind).
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';
import { createLatencyRecorder } from './latency.js';

/**
 * The gaps between arrivals, in ms: constant (1000 / rate) or exponential with that mean (a Poisson process).
 * @param {{ rate: number, arrivals: 'constant'|'poisson', random?: () => number }} options
 * @returns {() => number}
 */
export function createArrivals({ rate, arrivals, random = Math.random }) {
  const meanMs = 1000 / rate;
  if (arrivals === 'constant') return () => meanMs;
  return () => -Math.log(1 - random()) * meanMs;
}

/** A small seeded generator (mulberry32), so that a run's arrival times can be replayed in a test. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * @param {object} options
 * @param {string} options.origin  e.g. http://127.0.0.1:3000
 * @param {{ path: string, method?: string, headers?: object, body?: string }} options.request
 * @param {number} options.rate  requests per second
 * @param {'constant'|'poisson'} options.arrivals
 * @param {number} options.durationMs  requests are due in [0, durationMs)
 * @param {number} options.connections  the most connections open at once
 * @param {number} options.graceMs  after the last due time, how long answers are waited for; what is still unanswered
 *   then counts as a timeout, its time (from due to the cut) recorded as the least it would have been
 * @param {{ record(ms: number): void }} [options.recorder]  every answered request's time from due
 * @param {{ record(atMs: number, ms: number): void }} [options.series]  the same, by due time
 * @param {() => number} [options.random]
 * @returns {Promise<OpenLoopResult>}
 * @typedef {{ duration: number, rate: number, sent: number, requests: { total: number }, throughput: { total: number },
 *   errors: number, timeouts: number, non2xx: number, queued: number, lag: import('./latency.js').LatencySummary,
 *   peakConnections: number }} OpenLoopResult
 *   the fields of an autocannon result the loader reads, and the open loop's own: requests sent, requests that found
 *   every connection busy, how late they were sent, and the most in flight at once
 */
export async function runOpenLoop({
  origin,
  request,
  rate,
  arrivals,
  durationMs,
  connections,
  graceMs,
  recorder = createLatencyRecorder(),
  series = { record() {} },
  random,
}) {
  const pool = new Pool(origin, { connections, pipelining: 1, headersTimeout: 0, bodyTimeout: 0 });
  const totals = { sent: 0, ok: 0, bytes: 0, errors: 0, non2xx: 0, queued: 0, inFlight: 0, peak: 0 };
  const lag = createLatencyRecorder();
  const pending = new Map();
  const nextGap = createArrivals({ rate, arrivals, random });
  const started = performance.now();
  const now = () => performance.now() - started;

  const send = (dueMs) => {
    lag.record(Math.max(0, now() - dueMs));
    if (totals.inFlight >= connections) totals.queued += 1;
    totals.inFlight += 1;
    totals.peak = Math.max(totals.peak, totals.inFlight);
    totals.sent += 1;
    const id = totals.sent;
    pending.set(id, dueMs);
    sendOne(pool, request).then((answer) => {
      if (!pending.delete(id)) return;
      totals.inFlight -= 1;
      if (answer.error) {
        totals.errors += 1;
        return;
      }
      const ms = now() - dueMs;
      recorder.record(ms);
      series.record(dueMs, ms);
      totals.ok += 1;
      totals.bytes += answer.bytes;
      if (answer.status < 200 || answer.status > 299) totals.non2xx += 1;
    });
  };

  let dueMs = nextGap();
  while (dueMs < durationMs) {
    const wait = dueMs - now();
    // Timers have 1 ms resolution: sleep the whole milliseconds, then let I/O in until the request is due.
    if (wait >= 1) await delay(Math.floor(wait));
    else if (wait > 0) await new Promise(setImmediate);
    while (dueMs < durationMs && dueMs <= now()) {
      send(dueMs);
      dueMs += nextGap();
    }
  }
  const deadline = durationMs + graceMs;
  while (pending.size > 0 && now() < deadline) await delay(Math.min(50, Math.max(1, deadline - now())));
  // Still unanswered at the cut: a timeout, timed as at least its wait so far (it would only have been later).
  const cutMs = now();
  for (const due of pending.values()) {
    recorder.record(cutMs - due);
    series.record(due, cutMs - due);
  }
  const timeouts = pending.size;
  pending.clear();
  await pool.destroy();
  return {
    duration: durationMs / 1000,
    rate,
    sent: totals.sent,
    requests: { total: totals.ok },
    throughput: { total: totals.bytes },
    errors: totals.errors + timeouts,
    timeouts,
    non2xx: totals.non2xx,
    queued: totals.queued,
    lag: lag.summarize(),
    peakConnections: totals.peak,
  };
}

/** One request on the pool; its whole body read. Never rejects: an error is an answer too. */
async function sendOne(pool, { path, method = 'GET', headers, body }) {
  try {
    const response = await pool.request({ path, method, headers, body: body === '' ? undefined : body });
    let bytes = 0;
    for await (const chunk of response.body) bytes += chunk.length;
    return { status: response.statusCode, bytes };
  } catch (error) {
    return { error };
  }
}
