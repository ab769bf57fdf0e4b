// Making an engine where there is none: on a bare Debian machine (root, apt-get) install docker.io and start
// dockerd, and install the host tools that building a base image needs (debootstrap). A fresh CI box has neither,
// and no init system that would start dockerd for us.
import { accessSync, closeSync, constants, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import { execa } from './lazy-execa.js';
import { LabError } from '../../errors.js';
import { pingEngine } from './client.js';

export const DOCKERD_LOG = '/var/log/node-threads-lab-dockerd.log';
export const DEFAULT_SOCKET_HOST = 'unix:///var/run/docker.sock';

const START_TIMEOUT_MS = 60_000;
// Root's sbin directories hold dockerd and debootstrap but are missing from some non-login PATHs.
const SBIN_DIRS = ['/usr/local/sbin', '/usr/sbin', '/sbin'];
const HOST_TOOLS = [{ command: 'debootstrap', aptPackage: 'debootstrap' }];

let aptUpdated = false;

/**
 * Install the tools that building base images needs (debootstrap) when they are missing and apt-get
 * may be used; returns the names still missing, which only matter once a base image must be built.
 */
export async function ensureHostTools({ onProgress = () => {} } = {}) {
  const missing = () => HOST_TOOLS.filter((tool) => !findExecutable(tool.command));
  if (missing().length > 0 && canUseApt()) {
    await installPackages(
      missing().map((tool) => tool.aptPackage),
      { code: 'ERR_IMAGE_BUILD', onProgress },
    );
  }
  return missing().map((tool) => tool.command);
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

/** Installs (apt) and starts dockerd; undefined once it answers, else the reason it does not. */
export async function setUpLocalEngine(docker, { onProgress }) {
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
  return (
    failure && new Error(`dockerd did not answer within ${timeoutMs / 1000} s (see ${DOCKERD_LOG}): ${failure.message}`)
  );
}

async function installPackages(packages, { code, onProgress }) {
  const env = {
    DEBIAN_FRONTEND: 'noninteractive',
    PATH: [process.env.PATH, ...SBIN_DIRS].filter(Boolean).join(path.delimiter),
  };
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

export function isRoot() {
  return process.getuid?.() === 0;
}

function canUseApt() {
  return isRoot() && existsSync('/etc/debian_version') && Boolean(findExecutable('apt-get'));
}
