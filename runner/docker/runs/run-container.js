// One run = one container: created with the cell's limits, locked down, attached (stdout and stderr
// kept apart), started, awaited under a timeout, inspected for OOM, and always removed.
import { PassThrough } from 'node:stream';
import { LABELS, PROJECT } from './labels.js';
import { OWNER } from './owner.js';

export { LABELS };

const NON_ROOT_USER = '1000:1000';
const PIDS_LIMIT = 1024;
const TMPFS_SIZE = '64m';
export const OUTPUT_DRAIN_MS = 5000;

/**
 * @param {import('dockerode')} docker
 * @param {{ image: string, env: Record<string,string>,
 *           limits: {nanoCpus?: number, cpusetCpus?: string, memoryBytes?: number},
 *           timeoutMs: number, labels: Record<string,string>, cmd?: string[], entrypoint?: string[],
 *           networkMode?: string, mounts?: { source: string, target: string }[], workingDir?: string }} spec
 * @param {{ signal?: AbortSignal }} [options]  abort = stop and remove now (Ctrl-C)
 * @returns {Promise<{ exitCode: number|null, stdout: string, stderr: string, oomKilled: boolean, timedOut: boolean,
 *           aborted: boolean, containerMs: number, containerId: string }>}
 */
export async function runContainer(docker, spec, { signal } = {}) {
  const began = performance.now();
  const container = await docker.createContainer(toCreateOptions(spec));
  try {
    const output = await attachOutput(docker, container);
    await container.start();
    const ending = await waitForEnd(container, spec.timeoutMs, signal);
    if (ending !== 'exited') await container.kill().catch(ignoreGone);
    const state = (await container.inspect()).State;
    await drainOutput(output.done);
    return {
      exitCode: state.ExitCode ?? null,
      stdout: output.stdout(),
      stderr: output.stderr(),
      oomKilled: Boolean(state.OOMKilled),
      timedOut: ending === 'timeout',
      aborted: ending === 'aborted',
      containerMs: performance.now() - began,
      containerId: container.id,
    };
  } finally {
    await container.remove({ force: true, v: true }).catch(ignoreGone);
  }
}

export function toCreateOptions({
  image,
  env,
  limits,
  labels,
  cmd,
  entrypoint,
  networkMode = 'none',
  mounts = [],
  workingDir,
}) {
  return {
    Image: image,
    Entrypoint: entrypoint,
    Cmd: cmd,
    WorkingDir: workingDir,
    // An array of KEY=value: values are never interpreted by a shell.
    Env: Object.entries(env).map(([key, value]) => `${key}=${value}`),
    Labels: { [LABELS.project]: PROJECT, [LABELS.owner]: OWNER, ...labels },
    User: NON_ROOT_USER,
    Tty: false,
    AttachStdout: true,
    AttachStderr: true,
    NetworkDisabled: networkMode === 'none',
    HostConfig: {
      NanoCpus: limits.nanoCpus,
      CpusetCpus: limits.cpusetCpus,
      Memory: limits.memoryBytes,
      // Same as Memory: no swap, so a run over its limit is OOM-killed instead of slowed by swapping.
      MemorySwap: limits.memoryBytes,
      NetworkMode: networkMode,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      ReadonlyRootfs: true,
      Tmpfs: { '/tmp': `rw,noexec,nosuid,size=${TMPFS_SIZE}` },
      PidsLimit: PIDS_LIMIT,
      // The user's folder (script, http app, command root): always read-only.
      Mounts: mounts.map(({ source, target }) => ({ Type: 'bind', Source: source, Target: target, ReadOnly: true })),
    },
  };
}

/**
 * Containers of one run that has several (http: server and loader; command: the command and its watcher):
 * each created with its output attached and remembered, so that one `removeAll` in a `finally` takes them
 * all away, last created first (the loader lives in the server's namespace, the watcher reads the command's cgroup).
 */
export function trackContainers(docker) {
  const created = [];
  return {
    async create(options) {
      const container = await docker.createContainer(options);
      created.push(container);
      return { container, output: await attachOutput(docker, container) };
    },
    async removeAll() {
      for (const container of created.reverse()) await container.remove({ force: true, v: true }).catch(ignoreGone);
    },
  };
}

export async function attachOutput(docker, container) {
  const stream = await container.attach({ stream: true, stdout: true, stderr: true });
  const out = collect(new PassThrough());
  const err = collect(new PassThrough());
  docker.modem.demuxStream(stream, out.stream, err.stream);
  const done = new Promise((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', resolve);
  });
  return { stdout: out.text, stderr: err.text, done };
}

function collect(stream) {
  const chunks = [];
  stream.on('data', (chunk) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * The attach stream ends when the container does; the bound guards against an engine that never
 * closes it. The timer is cleared as soon as the output is in: a pending timer would keep the
 * process alive for OUTPUT_DRAIN_MS after its last line.
 */
export async function drainOutput(done, boundMs = OUTPUT_DRAIN_MS) {
  let timer;
  try {
    await Promise.race([
      done,
      new Promise((resolve) => {
        timer = setTimeout(resolve, boundMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** @returns {Promise<'exited'|'timeout'|'aborted'>} */
export async function waitForEnd(container, timeoutMs, signal) {
  let timer;
  let onAbort;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(resolve, timeoutMs, 'timeout');
  });
  const aborted = new Promise((resolve) => {
    onAbort = () => resolve('aborted');
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([container.wait().then(() => 'exited'), timeout, aborted]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

export function ignoreGone(error) {
  // 404: already removed; 409: removal already in progress, or not running when killed.
  if (error?.statusCode === 404 || error?.statusCode === 409 || error?.statusCode === 304) return;
  throw error;
}
