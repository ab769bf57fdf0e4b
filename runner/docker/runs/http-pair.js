// One http run = two containers from the same image, both locked down like every run's container:
//   server  node /app/run.js     NetworkMode none (loopback only), the cell's limits
//   loader  node /app/loader.js  NetworkMode container:<server>, so it reaches 127.0.0.1 of the server
//                                and nothing else; its own limits (plan/loader-limits.js)
// The loader waits for the server, checks its answers, warms up, brackets the measured period with
// POST /__lab/start and /__lab/stop, prints its line and exits; the server prints its line after
// /__lab/stop and exits. Whatever happens (failure, timeout, abort), both are removed.
import { setTimeout as delay } from 'node:timers/promises';
import { drainOutput, ignoreGone, LABELS, toCreateOptions, trackContainers, waitForEnd } from './run-container.js';

const ROLE_LABEL = LABELS.role;
export const LOADER_ENTRYPOINT = ['node', '/app/loader.js'];
// After /__lab/stop the server only prints and exits; longer than this means it is stuck.
const SERVER_EXIT_GRACE_MS = 15_000;
// Once its line is out, how long the server gets to exit by itself before it is stopped, and how often its output is
// looked at. Node's exit joins libuv's pool threads, which first finish every job still queued: an open loop past the
// server's capacity leaves thousands (a pbkdf2 each), and the exit would wait seconds for work nobody waits for.
const EXIT_AFTER_LINE_MS = 1000;
const LINE_POLL_MS = 100;

/**
 * @param {import('dockerode')} docker
 * @param {{ image: string, labels: Record<string,string>, timeoutMs: number,
 *           server: { env: Record<string,string>, limits: object },
 *           loader: { env: Record<string,string>, limits: object } }} spec  timeoutMs bounds the whole pair
 * @param {{ signal?: AbortSignal }} [options]
 */
export async function runHttpPair(docker, { image, labels, timeoutMs, server, loader }, { signal } = {}) {
  const began = performance.now();
  const remaining = () => Math.max(0, timeoutMs - (performance.now() - began));
  const { create, removeAll } = trackContainers(docker);
  try {
    const serverSide = await create(
      toCreateOptions({ image, ...server, labels: { ...labels, [ROLE_LABEL]: 'server' } }),
    );
    await serverSide.container.start();
    const loaderSide = await create(
      toCreateOptions({
        image,
        ...loader,
        entrypoint: LOADER_ENTRYPOINT,
        networkMode: `container:${serverSide.container.id}`,
        labels: { ...labels, [ROLE_LABEL]: 'loader' },
      }),
    );
    await loaderSide.container.start();

    const loaderPhase = await awaitLoader(serverSide.container, loaderSide.container, remaining(), signal);
    const loaderState = (await loaderSide.container.inspect()).State;
    const loaderDone = loaderPhase.ending === 'exited' && loaderState.ExitCode === 0;
    let serverEnding = loaderPhase.serverEndedFirst ? 'exited' : 'stopped';
    if (loaderDone)
      serverEnding = await awaitServerEnd(serverSide, Math.min(remaining(), SERVER_EXIT_GRACE_MS), signal);
    if (serverEnding !== 'exited') await serverSide.container.kill().catch(ignoreGone);
    const serverState = (await serverSide.container.inspect()).State;
    await drainOutput(Promise.all([serverSide.output.done, loaderSide.output.done]));
    return {
      server: describe(serverSide.output, serverState),
      loader: describe(loaderSide.output, loaderState),
      aborted: (loaderPhase.ending === 'aborted' && Boolean(signal?.aborted)) || serverEnding === 'aborted',
      timedOut: loaderPhase.ending === 'timeout' || (serverEnding === 'timeout' && remaining() === 0),
      serverEndedFirst: loaderPhase.serverEndedFirst,
      // The server printed its line and was stopped while its exit waited on its pool (awaitServerEnd).
      serverStoppedAfterLine: serverEnding === 'printed',
      containerMs: performance.now() - began,
      containerId: serverSide.container.id,
    };
  } finally {
    await removeAll();
  }
}

/**
 * Wait for the loader to exit. A server that fails first (it exits non-zero), the timeout or an abort cut the
 * wait short; then the loader is killed. A server that exits 0 has answered /__lab/stop, so the loader has
 * everything it measured and is only summing it up (sorting a million response times takes a while): that
 * wait goes on, bounded by the timeout, or the loader would be killed just before it prints its line.
 * @returns {Promise<{ ending: 'exited'|'timeout'|'aborted', serverEndedFirst: boolean }>}
 */
export async function awaitLoader(serverContainer, loaderContainer, timeoutMs, signal) {
  const cut = new AbortController();
  const onAbort = () => cut.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) cut.abort();
  let waiting = true;
  let serverEndedFirst = false;
  serverContainer.wait().then(
    (result) => {
      if (!waiting) return;
      serverEndedFirst = true;
      if (result?.StatusCode !== 0) cut.abort();
    },
    () => {},
  );
  try {
    const ending = await waitForEnd(loaderContainer, timeoutMs, cut.signal);
    waiting = false;
    if (ending !== 'exited') await loaderContainer.kill().catch(ignoreGone);
    return { ending, serverEndedFirst };
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The server's end after the loader is done: its exit, or its result line and a moment to exit, bounded.
 * @param {{ container: object, output: { stdout(): string } }} side
 * @returns {Promise<'exited'|'printed'|'timeout'|'aborted'>}  printed: its line is out and it has not exited yet
 */
export async function awaitServerEnd({ container, output }, timeoutMs, signal) {
  let exited = false;
  const waiting = container.wait().then(
    () => (exited = true),
    () => (exited = true),
  );
  const started = performance.now();
  let lineAt = null;
  while (!exited && !signal?.aborted) {
    const now = performance.now();
    if (lineAt === null && output.stdout().includes('\n')) lineAt = now;
    if (lineAt !== null && now - lineAt >= EXIT_AFTER_LINE_MS) return 'printed';
    if (now - started >= timeoutMs) return 'timeout';
    await Promise.race([waiting, delay(LINE_POLL_MS)]);
  }
  return exited ? 'exited' : 'aborted';
}

function describe(output, state) {
  return {
    exitCode: state.ExitCode ?? null,
    stdout: output.stdout(),
    stderr: output.stderr(),
    oomKilled: Boolean(state.OOMKilled),
  };
}
