// The http server's primary process: start the server processes (itself, N cluster children, or your start command),
// then serve the control port until the load generator has bracketed the measured period with
// POST /__lab/start and POST /__lab/stop. Event-loop delay, cgroup counters and CPU time cover
// exactly that period; the warm-up before it is not counted, nor are its requests still in flight when
// it ends: POST /__lab/start waits for them (drain.js). Returns the result; run.js prints it.

import http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { readClockMs } from '../clock.js';
import { WorkloadError } from '../workload-error.js';
import { diffCgroupCounters, readCgroupSnapshot } from '../probe/cgroup.js';
import { diffHostCpu, readHostCpu } from '../probe/host-cpu.js';
import { readSeen } from '../probe/seen.js';
import { startThreadSampler } from '../probe/os-threads.js';
import { forkServerProcesses } from './cluster-server.js';
import { CONTROL, CONTROL_PORT, HOST } from './endpoints.js';
import { startCpuSeries } from './cpu-series.js';
import { buildServerResult } from './server-result.js';
import { startServerProcess } from './server-process.js';
import { listServicePids, startUserCommand } from './start-command.js';

/** @param {import('../spec.js').Spec} spec */
export async function runHttpPrimary(spec) {
  const t0 = readClockMs();
  // A start command's processes are the service; ours only hands out the control port.
  const sampler = spec.params.start
    ? startThreadSampler([], { listPids: listServicePids })
    : startThreadSampler([process.pid]);
  let failed;
  const failure = new Promise((_, reject) => {
    failed = reject;
  });
  // A failure while starting also rejects startUnits itself; the race below is for later failures.
  failure.catch(() => {});
  const units = await startUnits(spec, { onFork: sampler.addProcess, onFailure: (error) => failed(error) });
  const readyAt = readClockMs();
  const measured = createDeferred();
  const control = await startControlServer(createControl({ units, sampler, measured }));
  try {
    const window = await Promise.race([measured.promise, failure]);
    return buildServerResult({ t0, readyAt, ...window });
  } finally {
    control.closeAllConnections();
    control.close();
    // The result is whole once the period is measured; closing only tidies up before run.js prints and exits. A worker
    // thread's terminate() waits for its calls still on libuv's pool (a queue of pbkdf2 under a 1-CPU quota can take
    // longer than the runner's grace after /__lab/stop, which then killed a server that had its numbers): wait for
    // the close at most CLOSE_WAIT_MS, and let the exit end what is left.
    await Promise.race([units.close(), delay(CLOSE_WAIT_MS, undefined, { ref: false })]);
  }
}

const CLOSE_WAIT_MS = 2000;

async function startUnits(spec, { onFork, onFailure }) {
  if (spec.params.start) {
    const command = await startUserCommand(spec.params, {
      onFailure,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    return {
      drain: command.drain,
      start: async () => command.start(),
      // No event loop of ours, no requests of ours: those columns stay empty.
      stop: async () => ({ loops: [], usages: [command.stop().usage], served: [null] }),
      close: command.close,
    };
  }
  if (spec.cluster > 0) {
    const children = await forkServerProcesses({ spec, onFork, onFailure });
    // The primary only hands out connections, but its CPU and memory are the run's too.
    const own = trackOwnUsage();
    return {
      drain: children.drain,
      start: async () => {
        own.start();
        await children.start();
      },
      stop: async () => {
        const reports = await children.stop();
        return {
          loops: reports.map((report) => report.loop),
          usages: [own.stop().usage, ...reports.map((report) => report.usage)],
          served: reports.map((report) => report.served),
        };
      },
      close: children.close,
    };
  }
  const server = await startServerProcess(spec);
  return {
    drain: server.drain,
    start: async () => server.start(),
    stop: async () => {
      const report = server.stop();
      return { loops: [report.loop], usages: [report.usage], served: [report.served] };
    },
    close: server.close,
  };
}

/** The primary's own usage over the measured period when it serves no requests itself (cluster). */
function trackOwnUsage() {
  let before = null;
  return {
    start() {
      before = process.cpuUsage();
    },
    stop() {
      const cpu = process.cpuUsage(before ?? undefined);
      return { usage: { cpuUserUs: cpu.user, cpuSystemUs: cpu.system, maxRssKiB: process.resourceUsage().maxRSS } };
    },
  };
}

function createControl({ units, sampler, measured }) {
  let started = null;
  return {
    [`GET ${CONTROL.ready}`]: async () => 'ready',
    [`POST ${CONTROL.start}`]: async () => {
      if (started) throw new WorkloadError('ERR_CONTROL', 'the measured period has already started');
      // The warm-up's requests finish first: their CPU time has no response in the period (drain.js).
      const drainMs = await units.drain();
      await units.start();
      const hostBefore = readHostCpu();
      const before = readCgroupSnapshot();
      started = { before, hostBefore, seen: readSeen(before), startAt: readClockMs(), drainMs, cpu: startCpuSeries() };
      return 'started';
    },
    [`POST ${CONTROL.stop}`]: async () => {
      if (!started) throw new WorkloadError('ERR_CONTROL', `${CONTROL.stop} before ${CONTROL.start}`);
      const stopAt = readClockMs();
      const after = readCgroupSnapshot();
      const host = diffHostCpu(started.hostBefore, readHostCpu());
      const cpuSeconds = started.cpu.stop();
      const { loops, usages, served } = await units.stop();
      measured.resolve({
        startAt: started.startAt,
        stopAt,
        seen: started.seen,
        drainMs: started.drainMs,
        counters: diffCgroupCounters(started.before, after),
        memoryPeakBytes: after.memoryPeakBytes,
        host,
        threadCounts: sampler.stop(),
        loops,
        usages,
        served,
        cpuSeconds,
      });
      return 'stopped';
    },
  };
}

async function startControlServer(routes) {
  const server = http.createServer((request, response) => {
    const route = routes[`${request.method} ${request.url}`];
    if (!route) return reply(response, 404, 'not found');
    route().then(
      (body) => reply(response, 200, body),
      (error) => reply(response, 409, error.message),
    );
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    // In a Kubernetes pod the kubelet probes the control server on the pod's address (runner/kubernetes/job-spec.js).
    server.listen(CONTROL_PORT, process.env.LAB_CONTROL_HOST || HOST, resolve);
  });
  return server;
}

function reply(response, status, body) {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  response.end(body);
}

function createDeferred() {
  let resolve;
  const promise = new Promise((onResolve) => {
    resolve = onResolve;
  });
  return { promise, resolve };
}
