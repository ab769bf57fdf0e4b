// The Docker backend (backend/contract.js): the run loop only calls execute(run) through a lane, so unit tests drive
// the whole pipeline on the contract's other implementation, the fake backend of canned results (backend/fake.js).
import { getWorkload } from '../../domain/workloads.js';
import { backendLost } from '../../backend/contract.js';
import { planLoaderLimits } from '../../plan/loader-limits.js';
import { runCommandTasks } from './command-run.js';
import { runHttpPair } from './http-pair.js';
import { imageKey } from '../../plan/image-choice.js';
import { LABELS, runContainer } from './run-container.js';

// The socket refused or vanished: the engine went away mid-matrix (restart, crash). Not a failed
// run, since nothing was measured, but the end of this matrix; rows so far are kept.
const ENGINE_GONE = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/**
 * @param {import('dockerode')} docker
 * @param {Map<number|string, {tag: string}>} images  imageKey(major, choice) → workload image
 */
export function createDockerExecutor(docker, images) {
  let hostCpuIds;
  return {
    // slotCpuIds: the CPUs of the slot the run was placed on (--slots): the http loader stays on them.
    async execute(run, { signal, slotCpuIds } = {}) {
      const startedAt = new Date();
      const spec = {
        image: images.get(imageKey(run.nodeMajor, run.imageChoice)).tag,
        env: run.env,
        limits: run.limits,
        mounts: run.mounts ?? [],
        timeoutMs: run.timeoutMs,
        labels: { [LABELS.experiment]: run.experiment, [LABELS.run]: run.runKey, [LABELS.cell]: run.cell },
      };
      // A serving workload (http) is measured by a load generator in a second container; an external
      // one (command) runs in the user's image, watched from outside.
      const workload = getWorkload(run.workload);
      const running = workload.serves
        ? executeHttp(docker, run, spec, {
            signal,
            withinSlot: Boolean(slotCpuIds),
            readHostCpuIds: async () => slotCpuIds ?? (hostCpuIds ??= await readEngineCpuIds(docker)),
          })
        : workload.external
          ? executeCommand(docker, run, spec, { signal })
          : runContainer(docker, spec, { signal });
      const raw = await running.catch((error) => {
        if (ENGINE_GONE.has(error?.code)) {
          throw backendLost(`the Docker engine stopped answering during run ${run.runKey} (${error.code})`, {
            hint: 'rows of the finished runs are in runs.csv; start dockerd again, then run the matrix again',
            cause: error,
          });
        }
        // The engine refused the container (a cpuset it lacks, say): a failed run with the reason, not a crash.
        return refused(error);
      });
      return { ...raw, startedAt, finishedAt: new Date() };
    },
  };
}

/** http: a server container and a load-generator container; their outcomes become one row in collect/. */
async function executeHttp(docker, run, spec, { signal, withinSlot, readHostCpuIds }) {
  const loaderLimits = planLoaderLimits({
    server: run.limits,
    loader: run.params.loader,
    hostCpuIds: await readHostCpuIds(),
    withinSlot,
    pinnedByCell: run.values ? run.values.cpuset !== undefined : undefined,
  });
  // Where the host has CPUs to spare beyond the cell's budget, the server is kept off the loader's (loader-limits.js).
  const serverLimits = loaderLimits.serverCpusetCpus
    ? { ...spec.limits, cpusetCpus: loaderLimits.serverCpusetCpus }
    : spec.limits;
  try {
    const pair = await runHttpPair(
      docker,
      {
        image: spec.image,
        labels: spec.labels,
        timeoutMs: spec.timeoutMs,
        server: { env: spec.env, limits: serverLimits, mounts: spec.mounts },
        // Only the spec: the cell's environment (UV_THREADPOOL_SIZE, env axes) is the server's.
        loader: { env: { LAB_SPEC: run.env.LAB_SPEC }, limits: loaderLimits },
      },
      { signal },
    );
    // Both containers' outcomes, for collect/ to combine into one row (collect/http-result.js).
    return { pair, loaderLimits, aborted: pair.aborted, containerMs: pair.containerMs, containerId: pair.containerId };
  } catch (error) {
    if (ENGINE_GONE.has(error?.code)) throw error;
    return refused(error, 'the http pair');
  }
}

/** command: the user's image and argv, measured from outside (command-run.js); our image only watches. */
export async function executeCommand(docker, run, spec, { signal }) {
  const { LAB_SPEC, ...env } = spec.env;
  const command = await runCommandTasks(
    docker,
    {
      ...spec,
      env,
      image: run.params.image ?? spec.image,
      watcherImage: spec.image,
      argv: run.params.argv,
      tasks: run.params.tasks,
      workingDir: run.workingDir,
    },
    { signal },
  );
  // Every task's outcome, for collect/ to turn into one row (collect/command-result.js).
  return {
    commandRun: command,
    aborted: command.aborted,
    containerMs: command.containerMs,
    containerId: command.containerId,
  };
}

function refused(error, what = 'the container') {
  return {
    exitCode: null,
    stdout: '',
    oomKilled: false,
    timedOut: false,
    aborted: false,
    containerMs: 0,
    containerId: '',
    stderr: `[runner] Docker refused ${what}: ${error.message}\n`,
  };
}

/** CPU ids of the engine's host, for the loader's cpuset; Docker reports only their count. */
async function readEngineCpuIds(docker) {
  const { NCPU } = await docker.info();
  return Array.from({ length: NCPU }, (_, id) => id);
}
