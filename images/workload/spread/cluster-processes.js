// Spread the run's tasks over C node:cluster processes. The primary forks them and runs no task
// itself; task i goes to process (i mod C) + 1, which spreads its hand over its own threads
// (threads.js). Each process has its own libuv pool, so unlike worker threads, cluster processes
// multiply the pool: C processes × UV_THREADPOOL_SIZE threads.

import cluster from 'node:cluster';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { dealRoundRobin, listTaskIndexes } from '../lib/deal.js';
import { awaitReady, followUnit } from './follow-unit.js';
import { prepareThreads } from './worker-threads.js';

const RUN_JS = fileURLToPath(new URL('../run.js', import.meta.url));
// 1-based index of a cluster process, set by the primary for each child it forks.
const PROCESS_INDEX_ENV = 'LAB_PROCESS_INDEX';

/**
 * Fork the cluster processes and wait until every one is ready, without starting any task. start() runs every task
 * once (one batch: each process its hand) and may be called again after it resolves; `records` and `usages` are
 * that batch's.
 * @param {(pid: number) => void} onFork  lets the probe watch each child from its first moment
 * @returns {Promise<{ start(): Promise<{ records: object[], usages: object[] }>, close(): Promise<void> }>}
 */
export async function prepareCluster({ spec, onTaskEnd, onFork }) {
  // The children's stdout goes to our stderr: the result line must be the only thing on stdout.
  cluster.setupPrimary({ exec: RUN_JS, stdio: ['ignore', 2, 2, 'ipc'] });
  let records = [];
  const collect = (record) => {
    records.push(record);
    onTaskEnd(record);
  };
  const units = [];
  for (let index = 1; index <= spec.cluster; index += 1) {
    const child = cluster.fork({ [PROCESS_INDEX_ENV]: String(index) });
    onFork(child.process.pid);
    units.push({ child, ...followUnit(child, `cluster process ${index} (pid ${child.process.pid})`, collect) });
  }
  const close = async () => {
    await Promise.all(units.map(({ child }) => stopChild(child)));
  };
  await awaitReady(units, close);
  return {
    async start() {
      records = [];
      const waits = units.map((unit) => unit.waitDone());
      for (const { child } of units) child.send({ type: 'go' });
      const dones = await Promise.all(waits);
      return { records, usages: dones.map((done) => done.usage) };
    },
    close,
  };
}

/**
 * The child's side: for each `go`, run this process's hand over its threads, following the same protocol as a
 * worker thread, and report its own CPU time over that batch and its peak RSS (the primary cannot read them).
 */
export async function serveClusterProcess(spec) {
  const processIndex = Number(process.env[PROCESS_INDEX_ENV]);
  const taskIndexes = dealRoundRobin(listTaskIndexes(spec.params.tasks), spec.cluster)[processIndex - 1];
  const threads = await prepareThreads({
    workloadName: spec.workload,
    params: spec.params,
    taskIndexes,
    workers: spec.workers,
    processIndex,
    onTaskEnd: (record) => process.send({ type: 'task', record }),
  });
  // Batches follow one another (the primary waits for every process's done before the next go).
  let running = Promise.resolve();
  process.on('message', (message) => {
    if (message?.type !== 'go') return;
    running = running.then(async () => {
      const cpuBefore = process.cpuUsage();
      await threads.start();
      const cpu = process.cpuUsage(cpuBefore);
      const usage = { cpuUserUs: cpu.user, cpuSystemUs: cpu.system, maxRssKiB: process.resourceUsage().maxRSS };
      process.send({ type: 'done', usage });
    });
  });
  process.send({ type: 'ready' });
  // Nothing more to do between batches: the process idles, connected, until the primary kills it. Exiting on our
  // own could let the primary see the exit before the done message and call it a crash.
}

/** Tell the primary why this child failed, then idle until it kills us (see serveClusterProcess). */
export function reportClusterProcessFailure(error) {
  if (!process.connected) process.exit(error.exitCode ?? 1);
  process.send({ type: 'error', message: error.message });
}

async function stopChild(child) {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = once(child.process, 'exit');
  child.process.kill();
  await exited;
}
