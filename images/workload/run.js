// Entry of the workload container (node /app/run.js): read LAB_SPEC, run the tasks (or hand the run to
// a workload that runs its own way: http serves until the load generator is done, see http/), print exactly
// one JSON line on stdout and exit. Logs and the one-line failure message go to stderr; a failed run
// exits non-zero and prints no result. The same file is the entry of every cluster child.
//
// Timeline: t0 → spawn worker threads / fork cluster processes, each loads the workload and says
// ready → cgroup counters (and the host's /proc/stat) read → go → tasks → counters read again. setup_ms is
// t0 → first task start, so spawn and load costs never enter task times, and counter deltas cover the tasks alone.

import cluster from 'node:cluster';
import { readClockMs } from './clock.js';
import { WorkloadError } from './workload-error.js';
import { diffCgroupCounters, readCgroupSnapshot } from './probe/cgroup.js';
import { diffHostCpu, readHostCpu } from './probe/host-cpu.js';
import { readSeen } from './probe/seen.js';
import { startThreadSampler } from './probe/os-threads.js';
import { buildResult } from './result.js';
import { parseSpec } from './spec.js';
import { prepareCluster, reportClusterProcessFailure, serveClusterProcess } from './spread/cluster-processes.js';
import { listTaskIndexes } from './spread/deal.js';
import { prepareThreads } from './spread/worker-threads.js';
import { getWorkload } from './workloads/index.js';

process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

if (cluster.isPrimary) runPrimary().catch(fail);
else serveChild(parseSpec(process.env.LAB_SPEC)).catch(fail);

// A workload that runs its own way (http: a server) takes over the primary and the cluster children.
function serveChild(spec) {
  const workload = getWorkload(spec.workload);
  return workload.serveChild ? workload.serveChild(spec) : serveClusterProcess(spec);
}

async function runPrimary() {
  const spec = parseSpec(process.env.LAB_SPEC);
  const workload = getWorkload(spec.workload);
  workload.assertRunnable?.(spec.params);
  if (workload.runPrimary) {
    print(await workload.runPrimary(spec));
    return;
  }
  const t0 = readClockMs();
  const pids = [process.pid];
  const sampler = startThreadSampler(pids);
  const run = await prepareRun(spec, sampler, (pid) => pids.push(pid));
  let result;
  try {
    const hostBefore = readHostCpu();
    const before = readCgroupSnapshot();
    const seen = readSeen(before);
    const cpuBefore = process.cpuUsage();
    const { records, usages } = await run.start();
    const cpu = process.cpuUsage(cpuBefore);
    const after = readCgroupSnapshot();
    const hostAfter = readHostCpu();
    // While every thread and process is still up: what the workload measures of them itself (idle: RSS).
    const metrics = getWorkload(spec.workload).measure?.({ pids, records, t0 }) ?? {};
    const own = { cpuUserUs: cpu.user, cpuSystemUs: cpu.system, maxRssKiB: process.resourceUsage().maxRSS };
    result = buildResult({
      workload: spec.workload,
      t0,
      records,
      seen,
      threadCounts: sampler.stop(),
      counters: diffCgroupCounters(before, after),
      memoryPeakBytes: after.memoryPeakBytes,
      usages: [own, ...usages],
      host: diffHostCpu(hostBefore, hostAfter),
      metrics,
    });
  } finally {
    await run.close();
  }
  print(result);
}

function print(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
}

function prepareRun(spec, sampler, onFork) {
  if (spec.cluster > 0) {
    return prepareCluster({
      spec,
      onTaskEnd: sampler.sample,
      onFork: (pid) => {
        sampler.addProcess(pid);
        onFork(pid);
      },
    });
  }
  return prepareThreads({
    workloadName: spec.workload,
    params: spec.params,
    taskIndexes: listTaskIndexes(spec.params.tasks),
    workers: spec.workers,
    processIndex: 0,
    onTaskEnd: sampler.sample,
  });
}

function fail(error) {
  const failure =
    error instanceof WorkloadError
      ? error
      : new WorkloadError('ERR_TASK_FAILED', error?.message ?? String(error), { cause: error });
  if (cluster.isWorker) {
    reportClusterProcessFailure(failure);
    return;
  }
  process.stderr.write(`workload failed: ${failure.message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(failure.exitCode);
}
