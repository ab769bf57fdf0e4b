// The executor is the seam between the pure pipeline and the engine: run-matrix.js only calls
// execute(run), so unit tests drive the whole pipeline with a fake executor of canned results.
import { LabError } from '../errors.js';
import { LABELS, runContainer } from './run-container.js';

// The socket refused or vanished: the engine went away mid-matrix (restart, crash). Not a failed
// run, since nothing was measured, but the end of this matrix; rows so far are kept.
const ENGINE_GONE = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/**
 * @param {import('dockerode')} docker
 * @param {Map<number, {tag: string}>} images  Node major → workload image
 */
export function createDockerExecutor(docker, images) {
  return {
    async execute(run, { signal } = {}) {
      const startedAt = new Date();
      const raw = await runContainer(
        docker,
        {
          image: images.get(run.nodeMajor).tag,
          env: run.env,
          limits: run.limits,
          timeoutMs: run.timeoutMs,
          labels: { [LABELS.experiment]: run.experiment, [LABELS.run]: run.runKey, [LABELS.cell]: run.cell },
        },
        { signal },
      ).catch((error) => {
        if (!ENGINE_GONE.has(error?.code)) throw error;
        throw new LabError('ERR_DOCKER_LOST', `the Docker engine stopped answering during run ${run.runKey} (${error.code})`, {
          hint: 'rows of the finished runs are in runs.csv; start dockerd again, then run the matrix again',
          cause: error,
        });
      });
      return { ...raw, startedAt, finishedAt: new Date() };
    },
  };
}
