// The only module that imports dockerode. Everything else receives a client as a parameter, so a
// matrix can be spread over several engines (one client per engine).
import { Agent } from 'node:https';
import Docker from 'dockerode';

export const PROJECT_LABEL = 'node-threads-lab.project';
export const PROJECT = 'node-threads-lab';

/**
 * A client for one Docker engine: `host` is a DOCKER_HOST-style address (unix:///path, tcp://h:p,
 * ssh://user@host[:port]) or an endpoint { host, tls: { ca, cert, key }, skipTLSVerify } read from a
 * Docker CLI context (contexts.js); without one, dockerode reads DOCKER_HOST itself and falls back
 * to /var/run/docker.sock.
 */
export function createDockerClient(host = process.env.DOCKER_HOST) {
  if (!host) return new Docker();
  const endpoint = typeof host === 'string' ? { host } : host;
  const url = new URL(endpoint.host);
  if (url.protocol === 'unix:') return new Docker({ socketPath: url.pathname });
  if (url.protocol === 'ssh:') {
    // As `docker -H ssh://…`: the engine is reached through `docker system dial-stdio` on the far side.
    return new Docker({
      protocol: 'ssh',
      host: url.hostname,
      port: Number(url.port) || 22,
      username: decodeURIComponent(url.username) || undefined,
      sshOptions: { agent: process.env.SSH_AUTH_SOCK },
    });
  }
  const { ca, cert, key } = endpoint.tls ?? {};
  const secure = url.protocol === 'https:' || Boolean(ca || cert) || endpoint.skipTLSVerify || url.port === '2376';
  return new Docker({
    host: url.hostname,
    port: Number(url.port) || (secure ? 2376 : 2375),
    protocol: secure ? 'https' : 'http',
    ca,
    cert,
    key,
    // SkipTLSVerify in a context: as the CLI does, accept any server certificate (an agent's options
    // are the only way past docker-modem, which passes no rejectUnauthorized of its own).
    ...(endpoint.skipTLSVerify ? { agent: new Agent({ rejectUnauthorized: false }) } : {}),
  });
}

/** Describe an engine for run.json and for error messages. */
export function describeEngine(host = process.env.DOCKER_HOST) {
  if (host && typeof host === 'object') return host.host;
  return host || 'unix:///var/run/docker.sock';
}
