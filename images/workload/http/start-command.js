// `http.start`: the service's own start command (`node src/server.js`), run as production runs it, in the
// server container: the user's folder (read-only) as its working directory, the cell's environment
// (UV_THREADPOOL_SIZE, NODE_OPTIONS, env axes such as WEB_CONCURRENCY), its output on our stderr (stdout is
// the result line's). We wait, bounded, until its port accepts a connection and `ready` (if given) answers
// 2xx; then it is loaded like any http run. None of our code is inside it, so what we measure is what the
// container's cgroup and /proc show: CPU time, memory, threads; not its event loop, not its requests.
// Its process tree is a process group of its own, ended at close(); the container's end takes anything left.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { readdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { WorkloadError } from '../workload-error.js';
import { USER_MOUNT } from '../lib/user-files.js';
import { readTextOrNull } from '../probe/read-text.js';
import { waitUntilIdle } from './drain.js';
import { HOST } from './endpoints.js';
import { requestOnce } from './request-once.js';

const POLL_MS = 100;
const PROBE_TIMEOUT_MS = 2000;
// After SIGTERM, how long the tree has to exit before SIGKILL.
const TERM_GRACE_MS = 5000;
// /proc/net/tcp states of a connection the server still holds (not LISTEN, not TIME_WAIT or CLOSE: closed on its side).
const OPEN_STATES = new Set(['01', '02', '03', '04', '05', '08', '09', '0B']);

/**
 * @param {{ start: string|string[], port: number, ready?: string, readyTimeout: number }} params  params.http, filled
 * @param {{ onFailure(error: Error): void, log(line: string): void }} hooks  onFailure: the command exited while
 *   serving
 * @returns {Promise<{ drain(): Promise<number>, start(): void, stop(): object, close(): Promise<void> }>}  once it
 *   answers
 */
export async function startUserCommand({ start, port, ready, readyTimeout }, { onFailure, log }) {
  const shown = Array.isArray(start) ? start.join(' ') : start;
  const [file, args] = Array.isArray(start) ? [start[0], start.slice(1)] : ['/bin/sh', ['-c', start]];
  const child = spawn(file, args, {
    cwd: USER_MOUNT,
    env: toChildEnv(process.env),
    // Its stdout too goes to our stderr: our stdout carries the result line alone.
    stdio: ['ignore', 2, 2],
    // A process group of its own, so that close() ends its whole tree (sh, node, its cluster workers).
    detached: true,
  });
  let closing = false;
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
  const spawned = once(child, 'spawn');
  const failedToSpawn = once(child, 'error').then(([error]) => {
    throw new WorkloadError(
      'ERR_START_FAILED',
      `your start command \`${shown}\` could not be started: ${error.message}`,
    );
  });
  await Promise.race([spawned, failedToSpawn]);
  const target = `${HOST}:${port}${ready ? ` and GET ${ready} answering 2xx` : ''}`;
  log(`started \`${shown}\` (pid ${child.pid}); waiting for ${target}, at most ${readyTimeout} s`);
  const waiting = { over: false };
  const answering = waitUntilAnswering({ port, ready, timeoutMs: readyTimeout * 1000, shown, waiting });
  const endedEarly = exited.then(({ code, signal }) => {
    throw new WorkloadError(
      'ERR_START_FAILED',
      `your start command \`${shown}\` exited (${signal ? `signal ${signal}` : `code ${code}`}) before ${target}; its output is above`,
    );
  });
  // Only the first to settle counts; the others must not surface later as unhandled rejections.
  for (const promise of [answering, endedEarly]) promise.catch(() => {});
  try {
    await Promise.race([answering, endedEarly, failedToSpawn]);
  } catch (error) {
    await endTree(child, exited);
    throw error;
  } finally {
    waiting.over = true;
  }
  exited.then(({ code, signal }) => {
    if (closing) return;
    onFailure(
      new WorkloadError(
        'ERR_UNIT_EXITED',
        `your start command \`${shown}\` exited (${signal ? `signal ${signal}` : `code ${code}`}) while serving`,
      ),
    );
  });
  let cpuBefore = null;
  return {
    // Its requests are not ours to count: its connections closing says the warm-up's requests are done.
    drain: () => waitUntilIdle(async () => ({ requests: 0, connections: countPortConnections(port) })),
    start() {
      cpuBefore = process.cpuUsage();
    },
    stop() {
      const own = process.cpuUsage(cpuBefore ?? undefined);
      return {
        // Its CPU time is the cgroup's (the container's); RSS is each of its processes' peak, read from /proc.
        usage: { cpuUserUs: own.user, cpuSystemUs: own.system, maxRssKiB: sumPeakRssKiB(listServicePids()) },
      };
    },
    async close() {
      closing = true;
      await endTree(child, exited);
    },
  };
}

/** The service's processes: every process of the container's PID namespace but ours. */
export function listServicePids() {
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries.filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid).map(Number);
}

/** The cell's environment for the command: ours without the lab's own variables. */
export function toChildEnv(env) {
  const { LAB_SPEC, LAB_PROCESS_INDEX, ...rest } = env;
  return rest;
}

/** Connections to `port` the server holds open (both address families), from /proc/net: ours or not, any process. */
export function countPortConnections(port, read = readTextOrNull) {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (read(table) ?? '').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (local?.endsWith(`:${hexPort}`) && OPEN_STATES.has(state)) count += 1;
    }
  }
  return count;
}

async function waitUntilAnswering({ port, ready, timeoutMs, shown, waiting }) {
  const deadline = performance.now() + timeoutMs;
  let last = 'nothing tried yet';
  while (performance.now() < deadline && !waiting.over) {
    try {
      await connectOnce(port);
      if (!ready) return;
      const { status } = await requestOnce(`http://${HOST}:${port}${ready}`, { timeoutMs: PROBE_TIMEOUT_MS });
      if (status >= 200 && status < 300) return;
      last = `GET ${ready} answered ${status}`;
    } catch (error) {
      last = error.code ?? error.message;
    }
    await delay(POLL_MS);
  }
  throw new WorkloadError(
    'ERR_SERVER_NOT_READY',
    `your start command \`${shown}\` did not answer within ${timeoutMs / 1000} s: ${HOST}:${port}${ready ? ` and GET ${ready} with 2xx` : ' accepting a connection'} (last: ${last}). ` +
      'Check `port` (where it listens: 0.0.0.0, :: or 127.0.0.1), `ready`, or give it longer with `readyTimeout`',
  );
}

function connectOnce(port) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: HOST, port, timeout: PROBE_TIMEOUT_MS });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => socket.destroy(new Error('no answer to a connection')));
    socket.once('error', reject);
  });
}

async function endTree(child, exited) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  signalGroup(child.pid, 'SIGTERM');
  const ended = await Promise.race([exited.then(() => true), delay(TERM_GRACE_MS).then(() => false)]);
  if (!ended) signalGroup(child.pid, 'SIGKILL');
  // Whatever outlived its leader in the group goes too.
  signalGroup(child.pid, 'SIGKILL');
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

function sumPeakRssKiB(pids) {
  return pids.reduce((total, pid) => {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readTextOrNull(`/proc/${pid}/status`) ?? '');
    return total + (match ? Number(match[1]) : 0);
  }, 0);
}
