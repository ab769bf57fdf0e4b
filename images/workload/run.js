// Entry of the workload container (node /app/run.js): read LAB_SPEC, run the tasks (or hand the run to
// a workload that runs its own way: http serves until the load generator is done, see http/), print exactly
// one JSON line on stdout and exit. Logs and the one-line failure message go to stderr; a failed run
// exits non-zero and prints no result. The same file is the entry of every cluster child.
//
// Timeline: [speed probe] → t0 → spawn worker threads / fork cluster processes, each loads the workload and says
// ready → [warm-up batches] → cgroup counters (and the host's /proc/stat) read → go → tasks [→ go → tasks, one
// round a measured batch] → counters read again. setup_ms is t0 → first task start, so spawn and load costs never
// enter task times, and counter deltas cover the measured tasks alone. The speed probe (spec.speed_probe, probe/
// speed.js) runs before t0, so it is in no time the run reports; batches (spec.batches, lib/batches.js) repeat the
// tasks in the same threads and processes, and the result is per batch (result.js).

import cluster from 'node:cluster';
import { readClockMs } from './clock.js';
import { WorkloadError } from './workload-error.js';
import { diffCgroupCounters, readCgroupSnapshot } from './probe/cgroup.js';
import { diffHostCpu, readHostCpu } from './probe/host-cpu.js';
import { readSeen } from './probe/seen.js';
import { runSpeedProbe } from './probe/speed.js';
import { startThreadSampler } from './probe/os-threads.js';
import { listBatchNumbers } from './lib/batches.js';
import { buildResult, round } from './result.js';
import { parseSpec } from './spec.js';
import { prepareCluster, reportClusterProcessFailure, serveClusterProcess } from './spread/cluster-processes.js';
import { listTaskIndexes } from './lib/deal.js';
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
  // First of all, alone in the container: nothing is spawned yet, and no time the run reports holds the probe.
  const speedProbe = spec.speed_probe ? runSpeedProbe() : null;
  if (workload.runPrimary) {
    print(addSpeedProbe(await workload.runPrimary(spec), speedProbe));
    return;
  }
  const t0 = readClockMs();
  const pids = [process.pid];
  const sampler = startThreadSampler(pids);
  const run = await prepareRun(spec, sampler, (pid) => pids.push(pid));
  const numbers = spec.batches ? listBatchNumbers(spec.batches) : [null];
  let result;
  try {
    const warmups = [];
    for (const number of numbers.filter((each) => each !== null && each <= 0))
      warmups.push(await runBatch(run, number));
    const hostBefore = readHostCpu();
    const before = readCgroupSnapshot();
    const seen = readSeen(before);
    const cpuBefore = process.cpuUsage();
    const measured = [];
    for (const number of numbers.filter((each) => each === null || each > 0))
      measured.push(await runBatch(run, number));
    const cpu = process.cpuUsage(cpuBefore);
    const after = readCgroupSnapshot();
    const hostAfter = readHostCpu();
    const batches = [...warmups, ...measured];
    // While every thread and process is still up: what the workload measures of them itself (idle: RSS). With
    // batches, of the first one (spawn and a cold first pass: what a run without batches measures).
    const metrics = getWorkload(spec.workload).measure?.({ pids, records: batches[0].records, t0 }) ?? {};
    const own = { cpuUserUs: cpu.user, cpuSystemUs: cpu.system, maxRssKiB: process.resourceUsage().maxRSS };
    result = buildResult({
      workload: spec.workload,
      t0,
      records: measured.flatMap((batch) => batch.records),
      seen,
      threadCounts: sampler.stop(),
      counters: diffCgroupCounters(before, after),
      memoryPeakBytes: after.memoryPeakBytes,
      usages: [own, ...measured.flatMap((batch) => batch.usages)],
      host: diffHostCpu(hostBefore, hostAfter),
      metrics,
      ...(spec.batches ? { batches, batchPlan: spec.batches } : {}),
    });
  } finally {
    await run.close();
  }
  print(addSpeedProbe(result, speedProbe));
}

/** One pass of every task: its number (null in a run without batches), when it began, its records and usages. */
async function runBatch(run, number) {
  const startedAt = readClockMs();
  const { records, usages } = await run.start();
  return { number, startedAt, records, usages };
}

function addSpeedProbe(result, speedProbe) {
  if (speedProbe === null) return result;
  return { ...result, speed_probe: { wall_ms: round(speedProbe.wall_ms), cpu_ms: round(speedProbe.cpu_ms) } };
}

function print(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`, () => {
    // An http server run as a pod's sidecar (runner/kubernetes/job-spec.js) stays until the kubelet stops it once the
    // load generator is done: a sidecar that exits is restarted.
    if (process.env.LAB_STAY_UNTIL_SIGTERM === '1') {
      process.once('SIGTERM', () => process.exit(0));
      setInterval(() => {}, 2 ** 30);
      return;
    }
    process.exit(0);
  });
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
