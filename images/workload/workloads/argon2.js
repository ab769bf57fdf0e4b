// argon2 (npm `argon2`, a native addon). Each hash runs as async work on the process's libuv pool,
// after a randomBytes call for the salt that also goes through the pool. With parallelism p > 1 the
// argon2 C code starts p threads of its own for every pass segment, so a hash uses more CPUs than the
// one pool thread it occupies: peak_threads shows them, UV_THREADPOOL_SIZE does not bound them.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WorkloadError } from '../workload-error.js';
import { listPoolLoads, shareCpus } from '../lib/capacity.js';

const APP_DIR = fileURLToPath(new URL('../', import.meta.url));

export const description =
  'argon2 tasks started at once, each an argon2.hash then an argon2.verify of that hash. Each call runs on the libuv ' +
  'thread pool and itself uses `parallelism` lanes.';

/** What one task does, exactly, in words (the published findings set it beside a post's operation). */
export function describeTask({ memoryCost, timeCost, parallelism }) {
  return (
    `argon2.hash of a password, then argon2.verify of that hash (memoryCost ${memoryCost} KiB, timeCost ` +
    `${timeCost}, parallelism ${parallelism}): two hashes' work a task`
  );
}

// Every task does the same work: the runner compares each run's CPU time per task with its cell's
// (cpu_per_task_dev_pct).
export const fixedWork = true;

// npm argon2's own defaults, so a spec that names no parameter measures what a default app pays.
export const params = {
  tasks: {
    type: 'integer',
    minimum: 1,
    default: 8,
    examples: [8],
    title: 'Calls per run',
    description: 'How many tasks (an argon2.hash and an argon2.verify of it) each run starts at once.',
  },
  memoryCost: {
    type: 'integer',
    minimum: 1024,
    default: 65536,
    examples: [65536],
    title: 'Memory cost (KiB)',
    description: 'Memory per hash in KiB (npm argon2 default 65536 = 64 MiB).',
  },
  timeCost: {
    type: 'integer',
    minimum: 1,
    default: 3,
    examples: [3],
    title: 'Time cost',
    description: 'Passes over the memory (npm argon2 default 3).',
  },
  parallelism: {
    type: 'integer',
    minimum: 1,
    maximum: 255,
    default: 4,
    examples: [1, 4],
    title: 'Parallelism',
    description: 'Lanes per hash (npm argon2 default 4).',
  },
};

let argon2;

/** Issues with paths relative to params.argon2, for values with the defaults filled in. */
export function checkParams({ memoryCost, parallelism }) {
  // Argon2 itself rejects memory below 8 KiB per lane; better to say so now than in 48 failed runs.
  // Values the schema rejects are already reported.
  const valid =
    Number.isInteger(memoryCost) &&
    memoryCost >= params.memoryCost.minimum &&
    Number.isInteger(parallelism) &&
    parallelism <= params.parallelism.maximum;
  if (!valid || memoryCost >= 8 * parallelism) return [];
  return [
    {
      path: ['memoryCost'],
      message: `expected at least 8 KiB per lane (8 × parallelism ${parallelism} = ${8 * parallelism}), found ${memoryCost}`,
      hint: `raise memoryCost to ${8 * parallelism} or more, or lower parallelism`,
    },
  ];
}

export function assertRunnable() {
  // argon2 0.45's prebuilt binaries declare Node-API 10. A Node.js with Node-API 9 (every Node 20)
  // dies with SIGSEGV while loading them instead of throwing; there the addon works only if npm's
  // install script compiled build/Release/argon2.node. A throwaway load turns the crash into a message.
  if (Number(process.versions.napi) >= 10) return;
  const probe = spawnSync(process.execPath, ['-e', 'require("argon2")'], {
    cwd: APP_DIR,
    stdio: 'ignore',
    timeout: 60_000,
  });
  if (probe.status === 0) return;
  throw new WorkloadError(
    'ERR_ADDON_UNLOADABLE',
    `the argon2 addon does not load in Node.js ${process.version} (Node-API ${process.versions.napi}; ` +
      `the load ended with ${probe.signal ?? `exit code ${probe.status}`}): its prebuilt binaries need Node-API 10, ` +
      'so install images/workload with this Node.js major and install scripts enabled (npm ci without --ignore-scripts) to compile it',
  );
}

export async function prepare() {
  ({ default: argon2 } = await import('argon2'));
}

export async function runTask({ memoryCost, timeCost, parallelism }, taskIndex) {
  const password = `password-${taskIndex}`;
  const hash = await argon2.hash(password, { memoryCost, timeCost, parallelism });
  // The verify belongs to the task and to its time: a login pays hash-equivalent work again, and
  // a hash that does not verify means the run measured something broken.
  if (!(await argon2.verify(hash, password))) {
    throw new WorkloadError('ERR_TASK_FAILED', 'the argon2 hash did not verify against its password');
  }
}

// The capacity model: a task is two pool jobs of equal cost (the hash, then the verify: a hash again), each
// on one pool thread but running `parallelism` lanes, so a job may use up to that many CPUs; jobs go in
// waves over the pool threads of each process, sharing the usable CPUs. c = the folder's median CPU time
// per task. Lanes wait for each other at every segment, which this does not count: one hash on more CPUs
// than one is where the host falls short of it.
export const model = {
  calibration: () => ({ kind: 'sample', sample: (run, { params }) => run.cpu_total_ms / params.tasks }),
  predict({ params, cpus, pool, cluster }, { value: taskMs }) {
    const loads = listPoolLoads({ tasks: params.tasks, pool, cluster, jobsPerTask: 2 });
    return { wall_ms: (taskMs / 2) * shareCpus(loads, { cpus, width: params.parallelism }).last };
  },
  describe: ({ value }) => `CPU time of one hash and its verify ${value.toPrecision(3)} ms`,
};
