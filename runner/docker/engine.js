// Reaching a Docker engine, and on a bare Debian machine (root, apt-get) making one: a fresh CI box
// has neither dockerd nor debootstrap, and no init system that would start dockerd for us.
import { accessSync, closeSync, constants, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import { execa } from './lazy-execa.js';
import { LabError } from '../errors.js';
import { createDockerClient, describeEngine } from './client.js';

export const DOCKERD_LOG = '/var/log/node-threads-lab-dockerd.log';
export const DEFAULT_SOCKET_HOST = 'unix:///var/run/docker.sock';

const PING_TIMEOUT_MS = 5_000;
const START_TIMEOUT_MS = 60_000;
// Root's sbin directories hold dockerd and debootstrap but are missing from some non-login PATHs.
const SBIN_DIRS = ['/usr/local/sbin', '/usr/sbin', '/sbin'];
const HOST_TOOLS = [{ command: 'debootstrap', aptPackage: 'debootstrap' }];

let aptUpdated = false;

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

async function askVersion(docker, timeoutMs = PING_TIMEOUT_MS) {
  let version;
  const failure = await pingEngine({ ping: async () => { version = await docker.version(); } }, timeoutMs);
  return failure ? { failure } : { version };
}

/**
 * Install the tools that building base images needs (debootstrap) when they are missing and apt-get
 * may be used; returns the names still missing, which only matter once a base image must be built.
 */
export async function ensureHostTools({ onProgress = () => {} } = {}) {
  const missing = () => HOST_TOOLS.filter((tool) => !findExecutable(tool.command));
  if (missing().length > 0 && canUseApt()) {
    await installPackages(missing().map((tool) => tool.aptPackage), { code: 'ERR_IMAGE_BUILD', onProgress });
  }
  return missing().map((tool) => tool.command);
}

/** undefined when the engine answers, else the reason it does not. */
export async function pingEngine(docker, timeoutMs = PING_TIMEOUT_MS) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([docker.ping().then(() => undefined, (error) => error), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Full path of an executable on PATH or in the sbin directories, or undefined. */
export function findExecutable(command, pathEnv = process.env.PATH ?? '') {
  const dirs = [...pathEnv.split(path.delimiter).filter(Boolean), ...SBIN_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

async function setUpLocalEngine(docker, { onProgress }) {
  const missingPackages = [
    ...(findExecutable('dockerd') ? [] : ['docker.io']),
    ...HOST_TOOLS.filter((tool) => !findExecutable(tool.command)).map((tool) => tool.aptPackage),
  ];
  if (missingPackages.includes('docker.io')) {
    if (!canUseApt()) return new Error('dockerd is not installed and apt-get is not available');
    await installPackages(missingPackages, { code: 'ERR_DOCKER_UNREACHABLE', onProgress });
    // The package's own scripts may have started the daemon already.
    if (!(await pingEngine(docker))) return undefined;
  }
  onProgress(`dockerd: starting dockerd (log: ${DOCKERD_LOG})`);
  await startDockerd(findExecutable('dockerd'));
  return waitForEngine(docker, START_TIMEOUT_MS);
}

// Detached with its own session and its output in a file, so dockerd outlives this process and
// never writes into a pipe that closes when we exit.
async function startDockerd(dockerd, log = DOCKERD_LOG) {
  const { execa: spawn } = await import('execa');
  const fd = openSync(log, 'a');
  try {
    const daemon = spawn(dockerd, [], {
      detached: true,
      cleanup: false,
      reject: false,
      stdio: ['ignore', fd, fd],
      env: { PATH: [process.env.PATH, ...SBIN_DIRS].filter(Boolean).join(path.delimiter) },
    });
    daemon.unref();
  } finally {
    closeSync(fd);
  }
}

async function waitForEngine(docker, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let failure = await pingEngine(docker);
  while (failure && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    failure = await pingEngine(docker);
  }
  return failure && new Error(`dockerd did not answer within ${timeoutMs / 1000} s (see ${DOCKERD_LOG}): ${failure.message}`);
}

async function installPackages(packages, { code, onProgress }) {
  const env = { DEBIAN_FRONTEND: 'noninteractive', PATH: [process.env.PATH, ...SBIN_DIRS].filter(Boolean).join(path.delimiter) };
  try {
    if (!aptUpdated) {
      onProgress('apt: apt-get update');
      await execa('apt-get', ['update'], { env, all: true });
      aptUpdated = true;
    }
    onProgress(`apt: apt-get install -y ${packages.join(' ')}`);
    await execa('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env, all: true });
  } catch (cause) {
    throw new LabError(code, `apt-get could not install ${packages.join(', ')}`, {
      hint: `Run \`apt-get update && apt-get install -y ${packages.join(' ')}\` by hand to see why. ${(cause.all ?? '').trim().split('\n').slice(-3).join(' | ')}`,
      cause,
    });
  }
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
  ].filter(Boolean).join(' ');
}

function isLocalEngine(host) {
  return !host || host === DEFAULT_SOCKET_HOST;
}

function isRoot() {
  return process.getuid?.() === 0;
}

function canUseApt() {
  return isRoot() && existsSync('/etc/debian_version') && Boolean(findExecutable('apt-get'));
}
