// The only module that imports dockerode. Everything else receives a client as a parameter, so a
// matrix can later be spread over several engines (one client per engine).
import Docker from 'dockerode';

export const PROJECT_LABEL = 'node-threads-lab.project';
export const PROJECT = 'node-threads-lab';

/**
 * A client for one Docker engine: `host` is a DOCKER_HOST-style address (unix:///path, tcp://h:p);
 * without one, dockerode reads DOCKER_HOST itself and falls back to /var/run/docker.sock.
 */
export function createDockerClient(host = process.env.DOCKER_HOST) {
  if (!host) return new Docker();
  const url = new URL(host);
  if (url.protocol === 'unix:') return new Docker({ socketPath: url.pathname });
  return new Docker({ host: url.hostname, port: Number(url.port) || 2375, protocol: url.protocol === 'https:' ? 'https' : 'http' });
}

/** Describe an engine for run.json and for error messages. */
export function describeEngine(host = process.env.DOCKER_HOST) {
  return host || 'unix:///var/run/docker.sock';
}
