// One process of the http server: its work (in-thread or on a worker pool), its app server and its
// event-loop monitor. The primary runs one itself without cluster; with `cluster: N` each child runs one.

import { startAppServer } from './app.js';
import { countConnections, createRequestCounter, waitUntilIdle } from './drain.js';
import { createLoopDelayMonitor } from './event-loop.js';
import { startUserApp } from './user-app.js';
import { startWorkerPool } from './worker-pool.js';
import { prepareWork } from './work.js';

/**
 * @param {import('../spec.js').Spec} spec
 * @returns {Promise<{ drain(): Promise<number>, start(): void, stop(): { loop: object, usage: object, served:
 *   number|null }, close(): Promise<void> }>}
 *   drain: resolves, with the ms it waited, once the warm-up's requests are done (drain.js); served: the GET /work
 *   requests whose work finished between start and stop (null for your app, whose work is not ours to count)
 */
export async function startServerProcess(spec) {
  if (spec.params.app) {
    const app = await startUserApp({ app: spec.params.app, workers: spec.workers });
    // Your app's work is not ours to count: its connections closing is what says its requests are done.
    return measureProcess({
      ...app,
      readBusy: async () => ({ requests: 0, connections: await countConnections(app.server) }),
      countFinished: () => null,
    });
  }
  const pool = spec.workers > 0 ? await startWorkerPool({ size: spec.workers, params: spec.params }) : null;
  const requests = createRequestCounter();
  const run = requests.wrap(pool ? pool.run : await prepareWork(spec.params));
  const server = await startAppServer({ run, fault: spec.params.fault, server: spec.params.server });
  return measureProcess({
    readBusy: async () => ({ requests: requests.inFlight, connections: await countConnections(server) }),
    countFinished: () => requests.finished,
    async close() {
      server.closeAllConnections();
      server.close();
      await pool?.close();
    },
  });
}

/** The measured period of one server process: its event-loop delay, CPU and requests served, whatever it serves. */
function measureProcess(serving) {
  const loop = createLoopDelayMonitor();
  let cpuBefore = null;
  let finishedBefore = null;
  return {
    drain: () => waitUntilIdle(serving.readBusy),
    start() {
      loop.start();
      cpuBefore = process.cpuUsage();
      finishedBefore = serving.countFinished();
    },
    stop() {
      const cpu = process.cpuUsage(cpuBefore ?? undefined);
      const finished = serving.countFinished();
      return {
        loop: loop.stop(),
        usage: { cpuUserUs: cpu.user, cpuSystemUs: cpu.system, maxRssKiB: process.resourceUsage().maxRSS },
        served: finished === null ? null : finished - (finishedBefore ?? 0),
      };
    },
    close: serving.close,
  };
}
