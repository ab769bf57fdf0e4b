// The only module that imports dockerode. Everything else receives a client as a parameter, so a
// matrix can be spread over several engines (one client per engine).
import http from 'node:http';
import https from 'node:https';
import Docker from 'dockerode';

const PING_TIMEOUT_MS = 5_000;

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
  // An agent of its own per engine: cutAllRequests() can then end every request to this engine alone.
  if (url.protocol === 'unix:') return new Docker({ socketPath: url.pathname, agent: new http.Agent() });
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
    agent: secure ? new https.Agent({ rejectUnauthorized: !endpoint.skipTLSVerify }) : new http.Agent(),
  });
}

/**
 * Gives an engine up: every request in flight to it ends at once (ECONNRESET) and every later one
 * fails (ECONNREFUSED), so nothing waits on an engine that will never answer and no request to it
 * keeps this process alive. Used once the watchdog declared the engine lost.
 */
export function abandonEngine(docker) {
  if (!docker.modem.agent) return;
  docker.modem.agent.destroy();
  docker.modem.agent = new RefusingAgent();
}

class RefusingAgent extends http.Agent {
  createConnection(options, callback) {
    process.nextTick(callback, Object.assign(new Error('the engine was given up as lost'), { code: 'ECONNREFUSED' }));
  }
}

/** Describe an engine for run.json and for error messages. */
export function describeEngine(host = process.env.DOCKER_HOST) {
  if (host && typeof host === 'object') return host.host;
  return host || 'unix:///var/run/docker.sock';
}

/** undefined when the engine answers, else the reason it does not. */
export async function pingEngine(docker, timeoutMs = PING_TIMEOUT_MS) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([
      docker.ping().then(
        () => undefined,
        (error) => error,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
