// `cluster: N` for http: the primary forks N processes that all listen on the app port (node:cluster
// hands each new connection to one of them) and drives their measured period over IPC. A child says
// `ready` once it listens; `drain` is answered once its share of the warm-up is done (drain.js);
// `start` and `stop` bracket the measured period; `stop` is answered with
// the child's event-loop delay and CPU/RSS usage, which the primary cannot read itself.

import cluster from 'node:cluster';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { WorkloadError } from '../workload-error.js';
import { startServerProcess } from './server-process.js';

const RUN_JS = fileURLToPath(new URL('../run.js', import.meta.url));
const PROCESS_INDEX_ENV = 'LAB_PROCESS_INDEX';

/**
 * @param {{ spec: object, onFork(pid: number): void, onFailure(error: Error): void }} options
 *   onFailure: a child failed or exited before close(); the run cannot be measured any more
 * @returns {Promise<{ drain(): Promise<number>, start(): Promise<void>, stop(): Promise<object[]>, close():
 *   Promise<void> }>}
 */
export async function forkServerProcesses({ spec, onFork, onFailure }) {
  cluster.setupPrimary({ exec: RUN_JS, stdio: ['ignore', 2, 2, 'ipc'] });
  let closing = false;
  const children = Array.from({ length: spec.cluster }, (_, offset) => {
    const index = offset + 1;
    const child = cluster.fork({ [PROCESS_INDEX_ENV]: String(index) });
    onFork(child.process.pid);
    const label = `cluster process ${index} (pid ${child.process.pid})`;
    const ready = new Promise((resolve, reject) => {
      child.on('message', (message) => {
        if (message?.type === 'ready') resolve();
        if (message?.type === 'error') {
          const error = new WorkloadError('ERR_TASK_FAILED', `${label}: ${message.message}`);
          reject(error);
          onFailure(error);
        }
      });
      child.on('exit', (code, signal) => {
        if (closing) return;
        const error = new WorkloadError(
          'ERR_UNIT_EXITED',
          `${label} exited (${signal ? `signal ${signal}` : `code ${code}`}) while serving`,
        );
        reject(error);
        onFailure(error);
      });
    });
    ready.catch(() => {});
    return { child, ready };
  });
  const close = async () => {
    closing = true;
    await Promise.all(children.map(({ child }) => stopChild(child)));
  };
  try {
    await Promise.all(children.map(({ ready }) => ready));
  } catch (error) {
    await close();
    throw error;
  }
  const ask = (type, reply) =>
    Promise.all(
      children.map(async ({ child }) => {
        const answer = waitForMessage(child, reply);
        child.send({ type });
        return answer;
      }),
    );
  return {
    /** Every child drained (drain.js); resolves with the longest wait. */
    async drain() {
      const answers = await ask('drain', 'drained');
      const failed = answers.find((answer) => answer.error);
      if (failed) throw new WorkloadError('ERR_DRAIN', failed.error);
      return Math.max(...answers.map((answer) => answer.waitedMs));
    },
    async start() {
      await ask('start', 'started');
    },
    async stop() {
      return (await ask('stop', 'stopped')).map((message) => message.report);
    },
    close,
  };
}

/** The child's side: serve, then follow the primary's start/stop until it kills us. */
export async function serveHttpClusterProcess(spec) {
  const server = await startServerProcess(spec);
  process.on('message', (message) => {
    if (message?.type === 'drain') {
      server.drain().then(
        (waitedMs) => process.send({ type: 'drained', waitedMs }),
        (error) => process.send({ type: 'drained', error: error.message }),
      );
    } else if (message?.type === 'start') {
      server.start();
      process.send({ type: 'started' });
    } else if (message?.type === 'stop') {
      process.send({ type: 'stopped', report: server.stop() });
    }
  });
  process.send({ type: 'ready' });
}

function waitForMessage(child, type) {
  return new Promise((resolve) => {
    const onMessage = (message) => {
      if (message?.type !== type) return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
  });
}

async function stopChild(child) {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = once(child.process, 'exit');
  child.process.kill();
  await exited;
}
