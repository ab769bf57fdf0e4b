// One process of the http server: its work (in-thread or on a worker pool), its app server and its
// event-loop monitor. The primary runs one itself without cluster; with `cluster: N` each child runs one.

import { startAppServer } from './app.js';
import { createLoopDelayMonitor } from './event-loop.js';
import { startUserApp } from './user-app.js';
import { startWorkerPool } from './worker-pool.js';
import { prepareWork } from './work.js';

/**
 * @param {import('../spec.js').Spec} spec
 * @returns {Promise<{ start(): void, stop(): { loop: object, usage: object }, close(): Promise<void> }>}
 */
export async function startServerProcess(spec) {
  if (spec.params.app) return measureProcess(await startUserApp({ app: spec.params.app, workers: spec.workers }));
  const pool = spec.workers > 0 ? await startWorkerPool({ size: spec.workers, params: spec.params }) : null;
  const run = pool ? pool.run : await prepareWork(spec.params);
  const server = await startAppServer({ run, fault: spec.params.fault, server: spec.params.server });
  return measureProcess({
    async close() {
      server.closeAllConnections();
      server.close();
      await pool?.close();
    },
  });
}

/** The measured period of one server process: its event-loop delay and CPU, whatever it serves. */
function measureProcess(serving) {
  const loop = createLoopDelayMonitor();
  let cpuBefore = null;
  return {
    start() {
      loop.start();
      cpuBefore = process.cpuUsage();
    },
    stop() {
      const cpu = process.cpuUsage(cpuBefore ?? undefined);
      return { loop: loop.stop(), usage: { cpuUserUs: cpu.user, cpuSystemUs: cpu.system, maxRssKiB: process.resourceUsage().maxRSS } };
    },
    close: serving.close,
  };
}
