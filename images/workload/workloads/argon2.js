// argon2 (npm `argon2`, a native addon). Each hash runs as async work on the process's libuv pool,
// after a randomBytes call for the salt that also goes through the pool. With parallelism p > 1 the
// argon2 C code starts p threads of its own for every pass segment, so a hash uses more CPUs than the
// one pool thread it occupies: peak_threads shows them, UV_THREADPOOL_SIZE does not bound them.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WorkloadError } from '../errors.js';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

// npm argon2's own defaults, so a spec that names no parameter measures what a default app pays.
export const defaults = { tasks: 8, memoryCost: 65536, timeCost: 3, parallelism: 4 };

let argon2;

export function checkParams({ memoryCost, parallelism }) {
  if (memoryCost < 8 * parallelism) {
    throw new WorkloadError(
      'ERR_SPEC_INVALID',
      `LAB_SPEC.params.memoryCost: argon2 needs at least 8 KiB per lane (8 × parallelism ${parallelism} = ${8 * parallelism}), got ${memoryCost}`,
    );
  }
}

export function assertRunnable() {
  // argon2 0.45's prebuilt binaries declare Node-API 10. A Node.js with Node-API 9 (every Node 20)
  // dies with SIGSEGV while loading them instead of throwing; there the addon works only if npm's
  // install script compiled build/Release/argon2.node. A throwaway load turns the crash into a message.
  if (Number(process.versions.napi) >= 10) return;
  const probe = spawnSync(process.execPath, ['-e', 'require("argon2")'], { cwd: APP_DIR, stdio: 'ignore', timeout: 60_000 });
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
