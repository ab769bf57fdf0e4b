// Reaching a Docker engine: a client, one round trip that is both ping and version, and when it does not answer, an
// error that says how to fix that. Making an engine where there is none is provision.js.
import { LabError } from '../../errors.js';
import { createDockerClient, describeEngine, pingEngine } from './client.js';
import { DEFAULT_SOCKET_HOST, DOCKERD_LOG, isRoot, setUpLocalEngine } from './provision.js';

/**
 * A client for a reachable engine. With `setup`, a missing local engine is installed and started
 * (root on Debian only); otherwise, or when that fails, ERR_DOCKER_UNREACHABLE says how to fix it.
 * onProgress receives a line of text per setup step.
 * Returns { docker, host, version } where version is the engine's `docker.version()` answer.
 */
export async function connectEngine({ host = process.env.DOCKER_HOST, setup = false, onProgress = () => {} } = {}) {
  const docker = createDockerClient(host);
  // The version request doubles as the ping: one round trip on the way to the first container.
  let answer = await askVersion(docker);
  if (answer.failure && setup && isLocalEngine(host) && isRoot()) {
    const failure = await setUpLocalEngine(docker, { onProgress });
    answer = failure ? { failure } : await askVersion(docker);
  }
  if (answer.failure) throw createUnreachableError({ host, failure: answer.failure, setup });
  return { docker, host: describeEngine(host), version: answer.version };
}

async function askVersion(docker, timeoutMs) {
  let version;
  const failure = await pingEngine(
    {
      ping: async () => {
        version = await docker.version();
      },
    },
    timeoutMs,
  );
  return failure ? { failure } : { version };
}

function createUnreachableError({ host, failure, setup }) {
  const where = describeEngine(host);
  return new LabError('ERR_DOCKER_UNREACHABLE', `Cannot reach the Docker engine at ${where}: ${failure.message}`, {
    hint: describeFix({ host, failure, setup }),
    cause: failure,
  });
}

function describeFix({ host, failure, setup }) {
  const where = describeEngine(host);
  if (failure.code === 'EACCES') {
    return `This user may not use ${where}. Fix: \`sudo usermod -aG docker $USER\`, then log in again.`;
  }
  if (!isLocalEngine(host)) {
    return `Check that the engine at ${where} is running and reachable, or unset DOCKER_HOST to use the local one.`;
  }
  return [
    setup && !isRoot() ? 'Run this as root to let it install and start Docker, or:' : undefined,
    'install Docker (`apt-get install -y docker.io` on Debian),',
    `start it (\`dockerd > ${DOCKERD_LOG} 2>&1 &\`, or \`systemctl start docker\`),`,
    'or point DOCKER_HOST at a running engine (e.g. DOCKER_HOST=tcp://host:2375).',
  ]
    .filter(Boolean)
    .join(' ');
}

function isLocalEngine(host) {
  return !host || host === DEFAULT_SOCKET_HOST;
}
