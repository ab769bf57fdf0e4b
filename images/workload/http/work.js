// The work one GET /work does, by params.work. Each kind turns into a function that returns the
// response body (a string, or a promise of one) and is deterministic, so the load generator can
// compute the right body itself once and compare it with what the server sends.
//
// Where the work runs is the point of the experiments: `pbkdf2` (sync: false) and `argon2` go to the
// process's libuv pool (UV_THREADPOOL_SIZE); `spin`, `template` and `pbkdf2` with sync: true block the
// thread that handles the request: the event loop, or a pool worker thread when `workers` > 0.

import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { WorkloadError } from '../workload-error.js';
import { prepareTemplate } from './template.js';
import { chooseThreadCpuClock } from '../probe/thread-cpu.js';

const pbkdf2Async = promisify(crypto.pbkdf2);
const PASSWORD = 'correct horse battery staple';
// A fixed salt makes the derived key, and so the body, the same for every request.
const SALT = Buffer.from('node-threads-lab');

const PREPARE = {
  none: () => () => 'ok',
  spin: ({ ms }) => {
    const readCpuNs = chooseThreadCpuClock();
    return () => spinCpu(readCpuNs, ms);
  },
  pbkdf2: ({ iterations, keylen, digest, sync }) => {
    try {
      crypto.pbkdf2Sync('', '', 1, 1, digest);
    } catch {
      throw new WorkloadError(
        'ERR_SPEC_INVALID',
        `LAB_SPEC.params.pbkdf2.digest: expected a digest this Node.js supports (e.g. sha512, sha256), got ${JSON.stringify(digest)}`,
      );
    }
    if (sync) return () => crypto.pbkdf2Sync(PASSWORD, SALT, iterations, keylen, digest).toString('hex');
    return async () => (await pbkdf2Async(PASSWORD, SALT, iterations, keylen, digest)).toString('hex');
  },
  argon2: async ({ memoryCost, timeCost, parallelism }) => {
    const { default: argon2 } = await import('argon2');
    const options = { raw: true, salt: SALT, memoryCost, timeCost, parallelism };
    return async () => (await argon2.hash(PASSWORD, options)).toString('hex');
  },
  template: (options) => prepareTemplate(options),
};

// Busy until this thread has used `ms` of CPU time. The clock is read every few thousand steps: a
// read is a system call (≈ 8 µs), small beside the 1 ms minimum but not free.
const STEPS_PER_READ = 5000;

export function spinCpu(readCpuNs, ms) {
  const end = readCpuNs() + ms * 1e6;
  let x = 0;
  while (readCpuNs() < end) for (let i = 0; i < STEPS_PER_READ; i++) x = (x * 31 + i) % 1_000_003;
  return `spun ${ms} ms`;
}

/**
 * @param {object} params  params.http, defaults filled (workloads/http.js)
 * @returns {Promise<() => string|Promise<string>>}
 */
export async function prepareWork(params) {
  return PREPARE[params.work](params[params.work] ?? {});
}
