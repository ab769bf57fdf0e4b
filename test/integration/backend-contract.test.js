// The Docker backend held to the backend contract on the real engine (test/support/backend-contract.js), the same
// suite the fake backend passes in the unit tests: an ok run, a run past its timeout (a row, not a throw), an abort
// (the container stopped and removed), and an engine that is not there (backendLost). Nothing of ours is left.
import { DEFAULT_NODE_MAJOR } from '../../runner/domain/axes.js';
import { createDockerClient } from '../../runner/docker/engines/client.js';
import { createDockerExecutor } from '../../runner/docker/runs/executor.js';
import { formatOwner } from '../../runner/docker/runs/owner.js';
import { describeBackendContract, planContractRuns } from '../support/backend-contract.js';
import { connectTestEngine, listOwnContainers } from '../support/docker-helpers.js';

const runOf = planContractRuns();

describeBackendContract('the Docker backend', async () => {
  if (process.env.LAB_TEST_IMAGE_ERROR)
    throw new Error(`global-setup could not build the test image:\n${process.env.LAB_TEST_IMAGE_ERROR}`);
  const docker = await connectTestEngine();
  const images = new Map([[DEFAULT_NODE_MAJOR, { tag: process.env.LAB_TEST_IMAGE }]]);
  const owners = new Set([formatOwner(process.pid)]);
  return {
    backend: createDockerExecutor(docker, images),
    lostBackend: createDockerExecutor(createDockerClient('unix:///nonexistent/docker.sock'), images),
    // idle waits a minute; its run is cut at 2 s: a timeout, which is a row like any other.
    runs: { ok: runOf('pbkdf2'), failing: { ...runOf('idle'), timeoutMs: 2000 } },
    afterEach: async () => expect(await listOwnContainers(docker, owners)).toEqual([]),
  };
});
