// pbkdf2: the classic libuv-pool workload. Async calls queue on the process's one libuv pool
// (UV_THREADPOOL_SIZE threads), so N calls finish in waves of pool size; pbkdf2Sync blocks the
// thread that calls it, so only worker threads or cluster processes run sync calls side by side.

import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { listPoolLoads, listThreadLoads, shareCpus } from '../lib/capacity.js';
import { suggestName } from '../lib/suggest.js';

const pbkdf2 = promisify(crypto.pbkdf2);

export const description =
  'crypto.pbkdf2 calls started at once. Async calls queue on the libuv thread pool (UV_THREADPOOL_SIZE), ' +
  'so they finish in waves of pool size; sync calls block the thread that makes them.';

/** What one task does, exactly, in words (the published findings set it beside a post's operation). */
export function describeTask({ iterations, keylen, digest, sync }) {
  return `crypto.pbkdf2${sync ? 'Sync' : ''}('password', 'salt', ${iterations}, ${keylen}, '${digest}')`;
}

// Every task does the same work: the runner compares each run's CPU time per task with its cell's
// (cpu_per_task_dev_pct).
export const fixedWork = true;

export const params = {
  tasks: {
    type: 'integer',
    minimum: 1,
    default: 16,
    examples: [4, 16],
    title: 'Calls per run',
    description: 'How many pbkdf2 calls each run starts at once.',
  },
  iterations: {
    type: 'integer',
    minimum: 1,
    default: 100000,
    examples: [100000],
    title: 'Iterations',
    description: 'pbkdf2 iterations per call: the CPU cost of one call.',
  },
  keylen: {
    type: 'integer',
    minimum: 1,
    default: 512,
    examples: [64, 512],
    title: 'Key length',
    description: 'Derived key length in bytes.',
  },
  digest: {
    type: 'string',
    default: 'sha512',
    examples: ['sha512', 'sha256', 'sha1'],
    title: 'Digest',
    description: 'HMAC digest, one of crypto.getHashes().',
  },
  sync: {
    type: 'boolean',
    default: false,
    examples: [false, true],
    title: 'Synchronous',
    description: 'false: async crypto.pbkdf2 via the libuv pool; true: pbkdf2Sync on the calling thread.',
  },
};

/** Issues with paths relative to params.pbkdf2. */
export function checkParams({ digest }) {
  // The runner checks with its own Node.js; the images' Node.js versions share its OpenSSL digests in practice.
  const hashes = crypto.getHashes();
  if (typeof digest !== 'string' || hashes.includes(digest)) return [];
  const suggestion = suggestName(digest, hashes);
  return [
    {
      path: ['digest'],
      message: `expected a digest from crypto.getHashes(), found ${JSON.stringify(digest)}`,
      hint: suggestion ? `did you mean \`${suggestion}\`?` : 'write e.g. `digest: sha512` (or sha256, sha1)',
    },
  ];
}

export function runTask({ iterations, keylen, digest, sync }) {
  if (sync) {
    crypto.pbkdf2Sync('password', 'salt', iterations, keylen, digest);
    return undefined;
  }
  return pbkdf2('password', 'salt', iterations, keylen, digest);
}

// The capacity model: calls of equal CPU cost c (the folder's median CPU time per call) in waves over the
// threads that run them at once (async: the pool threads of each process; sync: the thread that calls, per
// worker or process) sharing the usable CPUs. 16 calls of c on pool 1 → 4 at 2 CPUs: 16c → 8c, 0.50.
export const model = {
  calibration: () => ({ kind: 'sample', sample: (run, { params }) => run.cpu_total_ms / params.tasks }),
  predict({ params, cpus, pool, workers, cluster }, { value: callMs }) {
    const loads = params.sync
      ? listThreadLoads({ tasks: params.tasks, workers, cluster })
      : listPoolLoads({ tasks: params.tasks, pool, cluster });
    return { wall_ms: callMs * shareCpus(loads, { cpus }).last };
  },
  describe: ({ value }) => `CPU time of one call ${value.toPrecision(3)} ms`,
};
