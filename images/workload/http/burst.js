// Burst load, the way ApacheBench's `ab -n N -c N` measures: N requests sent at once, each on a new
// connection (ab without -k), and the time until the last one is answered. A closed loop (autocannon)
// measures throughput; a burst measures how long N simultaneous requests wait for each other, which is
// what the "more forks than cores" post reported (ab's "time per request"). `rounds` bursts, one after
// the other, give the spread of that time within one run. The first answer of each burst is kept too: with
// two requests on one process and a 1-thread pool, the first is answered after one request's work and the
// second after two. With `fastPath`, each burst is followed (after `fastAfterMs`) by one request to that
// path on a new connection, timed alone: is a trivial route answered while the burst's work runs?

import http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { URL } from 'node:url';

/**
 * @param {{ url: string, requests: number, rounds: number, recorder: { record(ms: number): void },
 *           fastPath?: string, fastAfterMs?: number }} options
 * @returns {Promise<{ roundsMs: number[], firstMs: number[], fastMs: number[], duration: number, requests: { total:
 *   number },
 *           throughput: { total: number }, errors: number, timeouts: number, non2xx: number }>}  the fields of an
 *           autocannon result the loader reads, and the burst's own times
 */
export async function runBursts({ url, requests, rounds, recorder, fastPath, fastAfterMs = 50, timeoutMs = 30_000 }) {
  const target = new URL(url);
  const fastTarget = fastPath ? new URL(fastPath, target) : null;
  const totals = { ok: 0, bytes: 0, errors: 0, timeouts: 0, non2xx: 0 };
  const roundsMs = [];
  const firstMs = [];
  const fastMs = [];
  const began = performance.now();
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    const burst = Promise.all(Array.from({ length: requests }, () => sendOne(target, timeoutMs)));
    const fast = fastTarget ? delay(fastAfterMs).then(() => sendOne(fastTarget, timeoutMs)) : null;
    const answers = await burst;
    roundsMs.push(performance.now() - start);
    const answered = answers.filter((answer) => !answer.error).map((answer) => answer.ms);
    if (answered.length > 0) firstMs.push(Math.min(...answered));
    if (fast) {
      const answer = await fast;
      if (!answer.error) fastMs.push(answer.ms);
    }
    for (const answer of answers) {
      if (answer.error) totals[answer.error === 'timeout' ? 'timeouts' : 'errors'] += 1;
      else {
        recorder.record(answer.ms);
        totals.ok += 1;
        totals.bytes += answer.bytes;
        if (answer.status < 200 || answer.status > 299) totals.non2xx += 1;
      }
    }
  }
  const seconds = (performance.now() - began) / 1000;
  return {
    roundsMs,
    firstMs,
    fastMs,
    duration: seconds,
    requests: { total: totals.ok },
    throughput: { total: totals.bytes },
    errors: totals.errors,
    timeouts: totals.timeouts,
    non2xx: totals.non2xx,
  };
}

// agent: false opens a connection per request and closes it after, as ab does without keep-alive.
function sendOne(target, timeoutMs) {
  return new Promise((resolve) => {
    const start = performance.now();
    const request = http.get(
      { host: target.hostname, port: target.port, path: target.pathname, agent: false, timeout: timeoutMs },
      (response) => {
        let bytes = 0;
        response.on('data', (chunk) => {
          bytes += chunk.length;
        });
        response.on('end', () => resolve({ ms: performance.now() - start, status: response.statusCode, bytes }));
        response.on('error', () => resolve({ error: 'error' }));
      },
    );
    request.on('timeout', () => {
      request.destroy();
      resolve({ error: 'timeout' });
    });
    request.on('error', () => resolve({ error: 'error' }));
  });
}

/** Median and slowest burst, ms: the burst columns of the row. */
export function summarizeRounds(roundsMs) {
  if (roundsMs.length === 0) return { p50: null, max: null };
  const sorted = [...roundsMs].sort((a, b) => a - b);
  return { p50: lowerMedian(sorted), max: sorted.at(-1) };
}

/** The lower middle of the values (one of them, as ab would print), or null for none. */
export function lowerMedian(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length / 2) - 1];
}
