// The Kubernetes backend (backend/contract.js): execute(run) → one Job → an Outcome of the shapes the Docker backend
// returns (one container's, or an http pair's), so that collect/ and everything after it do not know where it ran.
// A failed, out-of-memory, timed-out or refused run is an Outcome; a cluster that went away throws backendLost.
import { getWorkload } from '../domain/workloads.js';
import { backendLost, isBackendLost } from '../backend/contract.js';
import { LOADER_MEMORY_BYTES } from '../plan/loader-limits.js';
import { imageKey } from '../plan/image-choice.js';
import { OWNER } from '../docker/runs/owner.js';
import { buildJob, RUN_CONTAINER, toResources } from './job-spec.js';
import { describeError } from './cluster.js';
import { findContainerStatus, readTermination, splitLog } from './pod-status.js';
import { runJob } from './run-job.js';
import { userImageKey } from './user-images.js';

/**
 * @param {import('./cluster.js').Cluster} cluster
 * @param {object} options
 * @param {Map<number|string, { tag: string }>} options.images  imageKey(major, choice) → the workload image
 * @param {Map<string, { tag: string }>} [options.userImages]    user-images.js: runs with your own code
 * @param {(tag: string) => string} options.imageRef             the image as the nodes pull it
 * @param {'Never'|'IfNotPresent'} options.pullPolicy
 * @param {Record<string,string>} [options.nodeSelector]
 * @param {string} [options.owner]
 */
export function createKubernetesExecutor(
  cluster,
  { images, userImages = new Map(), imageRef, pullPolicy, nodeSelector, owner = OWNER },
) {
  return {
    async execute(run, { signal } = {}) {
      const startedAt = new Date();
      const workload = getWorkload(run.workload);
      const loaderLimits = workload.serves ? planPodLoaderLimits(run) : undefined;
      // Your own code (a `start` command, an app, a script) is in an image of its own (user-images.js).
      const own = userImages.get(userImageKey(run));
      const image = imageRef(own?.tag ?? images.get(imageKey(run.nodeMajor, run.imageChoice)).tag);
      const job = buildJob(run, { image, pullPolicy, nodeSelector, owner, loaderLimits });
      const { placement } = toResources(run.limits);
      const containers = loaderLimits ? ['server', 'loader'] : [RUN_CONTAINER];
      let ran;
      try {
        ran = await runJob(cluster, job, {
          signal,
          timeoutMs: run.timeoutMs,
          containers,
          endsWith: loaderLimits ? undefined : RUN_CONTAINER,
        });
      } catch (error) {
        // The run that was in flight is named, as the Docker backend names it.
        if (isBackendLost(error))
          throw backendLost(`${error.message}, during run ${run.runKey}`, {
            engine: error.engine,
            hint: error.hint,
            cause: error.cause ?? error,
          });
        // The API server refused the Job (forbidden, invalid, over a quota): a failed run with the reason.
        return {
          ...refused(`the API server refused the Job: ${describeError(error)}`),
          startedAt,
          finishedAt: new Date(),
        };
      }
      const times = { startedAt, finishedAt: new Date(), placement };
      if (ran.kind === 'refused') return { ...refused(`Kubernetes could not start the pod: ${ran.reason}`), ...times };
      if (loaderLimits) return { pair: toPair(ran), loaderLimits, aborted: ran.kind === 'aborted', ...times };
      return { ...toSingle(ran), ...times };
    },
  };
}

/**
 * The load generator's limits in the pod: its own container with its own CPU limit (params.http.loader.cpus) and the
 * loader's memory; no cpuset, which Kubernetes cannot ask for (an integer CPU count is exclusive CPUs under the static
 * CPU manager). Shared with the server's CPUs only when neither has exclusive ones, as far as asked.
 */
export function planPodLoaderLimits(run) {
  const cpus = run.params.loader?.cpus ?? 1;
  const nanoCpus = Math.round(cpus * 1e9);
  const serverWhole = toResources(run.limits).placement.cpus;
  const whole = (value) => value !== null && Number.isInteger(value);
  return {
    cpus,
    cpuset: '',
    nanoCpus,
    cpusetCpus: undefined,
    memoryBytes: LOADER_MEMORY_BYTES,
    shared: !whole(serverWhole) && !whole(cpus),
  };
}

function toSingle(ran) {
  const ended = readTermination(findContainerStatus(ran.pod, RUN_CONTAINER));
  const { stdout, stderr } = splitLog(ran.logs[RUN_CONTAINER]);
  const deadline = ran.kind === 'deadline' && ran.reason ? `[runner] the pod never started: ${ran.reason}\n` : '';
  return {
    exitCode: ended?.exitCode ?? null,
    stdout,
    stderr: stderr + deadline,
    oomKilled: ended?.oomKilled ?? false,
    timedOut: ran.kind === 'deadline',
    aborted: ran.kind === 'aborted',
    containerMs: ran.containerMs,
    containerId: ran.name,
  };
}

function toPair(ran) {
  const describe = (name) => {
    const status = findContainerStatus(ran.pod, name);
    const ended = readTermination(status);
    if (!status || (!ended && !status.state?.running)) return null;
    return { ...splitLog(ran.logs[name]), exitCode: ended?.exitCode ?? null, oomKilled: ended?.oomKilled ?? false };
  };
  const server = describe('server') ?? { exitCode: null, stdout: '', stderr: '', oomKilled: false };
  return {
    server,
    loader: describe('loader'),
    aborted: ran.kind === 'aborted',
    timedOut: ran.kind === 'deadline',
    // The server ended before the loader was done: it exited (the kubelet restarted it), which a served run never does.
    serverEndedFirst: readTermination(findContainerStatus(ran.pod, 'server'))?.restarted ?? false,
    containerMs: ran.containerMs,
    containerId: ran.name,
  };
}

function refused(reason) {
  return {
    exitCode: null,
    stdout: '',
    stderr: `[runner] ${reason}\n`,
    oomKilled: false,
    timedOut: false,
    aborted: false,
    containerMs: 0,
    containerId: '',
  };
}
