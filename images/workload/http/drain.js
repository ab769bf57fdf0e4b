// The warm-up's leftovers, kept out of the measured period. autocannon ends its warm-up by destroying its
// connections: the requests it had in flight are never answered to it, but the server still does their
// work (a pbkdf2 already in the libuv pool, a job queued on a worker thread, cannot be called back). Left
// alone, that work runs in the first moments of the measured period: CPU time counted with no response
// to show for it (≈ connections × one request's CPU), which weighs most where responses are fewest (a
// 0.5-CPU cell). So every server process drains first: the period opens once no GET /work is in flight and
// no connection to the app port is open.

import { setTimeout as delay } from 'node:timers/promises';
import { WorkloadError } from '../workload-error.js';

export const DRAIN_TIMEOUT_MS = 60_000;
const DRAIN_POLL_MS = 5;

/**
 * Counts the requests whose work has begun and not yet settled (in flight), whether or not anyone still waits
 * for them, and those whose work has settled (finished: each one answer, of the work or of its failure).
 */
export function createRequestCounter() {
  let inFlight = 0;
  let finished = 0;
  const settle = () => {
    inFlight -= 1;
    finished += 1;
  };
  return {
    get inFlight() {
      return inFlight;
    },
    get finished() {
      return finished;
    },
    /** `run` (the work of one request: a value or a promise of one), counted until it settles. */
    wrap(run) {
      return () => {
        inFlight += 1;
        let result;
        try {
          result = run();
        } catch (error) {
          settle();
          throw error;
        }
        if (typeof result?.then !== 'function') {
          settle();
          return result;
        }
        return result.finally(settle);
      };
    },
  };
}

/** Connections open on a net.Server (an http.Server, a Fastify app's, the connection dealer of user-app.js). */
export function countConnections(server) {
  return new Promise((resolve, reject) => {
    server.getConnections((error, count) => (error ? reject(error) : resolve(count)));
  });
}

/**
 * Waits until `readBusy` reports nothing in flight and no connection open.
 * @param {() => Promise<{ requests: number, connections: number }>} readBusy
 * @returns {Promise<number>}  the ms waited
 */
export async function waitUntilIdle(
  readBusy,
  { timeoutMs = DRAIN_TIMEOUT_MS, pollMs = DRAIN_POLL_MS, now = () => performance.now(), sleep = delay } = {},
) {
  const began = now();
  for (;;) {
    const busy = await readBusy();
    if (busy.requests === 0 && busy.connections === 0) return now() - began;
    if (now() - began >= timeoutMs) {
      throw new WorkloadError(
        'ERR_DRAIN',
        `the warm-up's requests were still running ${Math.round(timeoutMs / 1000)} s after it ended ` +
          `(${busy.requests} in flight, ${busy.connections} connections open), so the measured period could not open without them: ` +
          'give the cell more CPU, or fewer `connections` or `pipelining`',
      );
    }
    await sleep(pollMs);
  }
}
