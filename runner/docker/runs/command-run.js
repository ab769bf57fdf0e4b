// workload `command`: the user's argv in the user's image, one fresh container per task, one after
// another. Nothing of ours runs inside it, so it is measured from outside:
//   wall time    the engine's StartedAt → FinishedAt of the container (process start → exit)
//   CPU, throttling, memory peak   the container's cgroup, read by a watcher sidecar (our image,
//                /app/cgroup-watch.js) from the host's /sys/fs/cgroup, mounted read-only
//   exit code    the container's; non-zero fails the run
// argv goes to the engine as an array (Entrypoint + Cmd): no shell ever sees it.
import { setTimeout as delay } from 'node:timers/promises';
import { drainOutput, ignoreGone, LABELS, toCreateOptions, trackContainers, waitForEnd } from './run-container.js';

const ROLE_LABEL = LABELS.role;
const WATCHER_ENTRYPOINT = ['node', '/app/cgroup-watch.js'];
const WATCHER_MEMORY = 128 * 2 ** 20;
// After the command exits the engine removes its cgroup at once; the watcher then prints and exits.
const WATCHER_GRACE_MS = 10_000;
// A watcher that has not found the cgroup by the command's exit (a command shorter than its poll) never will.
const WATCHER_FIND_GRACE_MS = 500;
const WATCHER_READY_TIMEOUT_MS = 30_000;

/**
 * @param {import('dockerode')} docker
 * @param {{ image: string, watcherImage: string, argv: string[], tasks: number, env: Record<string,string>,
 *           limits: object, mounts: object[], workingDir?: string, labels: Record<string,string>,
 *           timeoutMs: number }} spec  timeoutMs bounds all tasks
 * @returns {Promise<{ tasks: object[], timedOut: boolean, aborted: boolean, containerMs: number,
 *   containerId: string }>}
 */
export async function runCommandTasks(docker, spec, { signal } = {}) {
  const began = performance.now();
  const remaining = () => Math.max(0, spec.timeoutMs - (performance.now() - began));
  const tasks = [];
  for (let task = 0; task < spec.tasks; task++) {
    const outcome = await runCommandOnce(docker, spec, { timeoutMs: remaining(), signal });
    tasks.push({ task, ...outcome });
    if (outcome.ending !== 'exited' || outcome.exitCode !== 0 || outcome.oomKilled) break;
  }
  const last = tasks.at(-1);
  return {
    tasks,
    timedOut: last.ending === 'timeout',
    aborted: last.ending === 'aborted',
    containerMs: performance.now() - began,
    containerId: last.containerId,
  };
}

async function runCommandOnce(
  docker,
  { image, watcherImage, argv, env, limits, mounts, workingDir, labels },
  { timeoutMs, signal },
) {
  const { create, removeAll } = trackContainers(docker);
  try {
    const target = await create(
      toCreateOptions({
        image,
        env,
        limits,
        mounts,
        workingDir,
        entrypoint: [argv[0]],
        cmd: argv.slice(1),
        labels: { ...labels, [ROLE_LABEL]: 'command' },
      }),
    );
    const watcher = await create(
      toCreateOptions({
        image: watcherImage,
        env: { LAB_WATCH: JSON.stringify({ id: target.container.id }) },
        limits: { memoryBytes: WATCHER_MEMORY },
        mounts: [{ source: '/sys/fs/cgroup', target: '/host/cgroup' }],
        entrypoint: WATCHER_ENTRYPOINT,
        labels: { ...labels, [ROLE_LABEL]: 'watcher' },
      }),
    );
    await watcher.container.start();
    // Node's start-up in the watcher takes longer than a short command lives: wait until it polls.
    await waitForLine(watcher.output, '"ready"', WATCHER_READY_TIMEOUT_MS);
    await target.container.start();
    const ending = await waitForEnd(target.container, timeoutMs, signal);
    if (ending !== 'exited') await target.container.kill().catch(ignoreGone);
    const state = (await target.container.inspect()).State;
    const watching = await waitForLine(watcher.output, '"watching"', WATCHER_FIND_GRACE_MS);
    const watchEnding = watching ? await waitForEnd(watcher.container, WATCHER_GRACE_MS) : 'not found';
    if (watchEnding !== 'exited') await watcher.container.kill().catch(ignoreGone);
    await drainOutput(Promise.all([target.output.done, watcher.output.done]));
    return {
      ending,
      exitCode: state.ExitCode ?? null,
      oomKilled: Boolean(state.OOMKilled),
      startedMs: parseEngineTime(state.StartedAt),
      finishedMs: parseEngineTime(state.FinishedAt),
      stdout: target.output.stdout(),
      stderr: target.output.stderr(),
      watch: parseWatchLine(watcher.output.stdout()),
      watchError: watcher.output.stderr(),
      containerId: target.container.id,
    };
  } finally {
    await removeAll();
  }
}

/** Whether the attached stdout shows `marker` within timeoutMs. */
async function waitForLine(output, marker, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  while (!output.stdout().includes(marker)) {
    if (performance.now() > deadline) return false;
    await delay(5);
  }
  return true;
}

/** The engine's RFC 3339 time with nanoseconds → ms since the epoch, keeping the sub-ms digits Date drops. */
export function parseEngineTime(text) {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(text ?? '');
  if (!match) return null;
  const seconds = Date.parse(`${match[1]}${match[3]}`);
  return seconds + Number(`0.${match[2] ?? '0'}`) * 1000;
}

/** The watcher's reading: its last line, if it got as far as printing one. */
function parseWatchLine(stdout) {
  const line = stdout.trim().split('\n').at(-1);
  try {
    const parsed = JSON.parse(line);
    return 'found' in parsed ? parsed : null;
  } catch {
    return null;
  }
}
