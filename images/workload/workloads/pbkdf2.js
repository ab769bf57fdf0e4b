// pbkdf2: the classic libuv-pool workload. Async calls queue on the process's one libuv pool
// (UV_THREADPOOL_SIZE threads), so N calls finish in waves of pool size; pbkdf2Sync blocks the
// thread that calls it, so only worker threads or cluster processes run sync calls side by side.

import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { suggestName } from '../lib/suggest.js';

const pbkdf2 = promisify(crypto.pbkdf2);

export const description =
  'crypto.pbkdf2 calls started at once. Async calls queue on the libuv thread pool (UV_THREADPOOL_SIZE), ' +
  'so they finish in waves of pool size; sync calls block the thread that makes them.';

export const params = {
  tasks: {
    type: 'integer', minimum: 1, default: 16, examples: [4, 16],
    title: 'Calls per run', description: 'How many pbkdf2 calls each run starts at once.',
  },
  iterations: {
    type: 'integer', minimum: 1, default: 100000, examples: [100000],
    title: 'Iterations', description: 'pbkdf2 iterations per call: the CPU cost of one call.',
  },
  keylen: {
    type: 'integer', minimum: 1, default: 512, examples: [64, 512],
    title: 'Key length', description: 'Derived key length in bytes.',
  },
  digest: {
    type: 'string', default: 'sha512', examples: ['sha512', 'sha256', 'sha1'],
    title: 'Digest', description: 'HMAC digest, one of crypto.getHashes().',
  },
  sync: {
    type: 'boolean', default: false, examples: [false, true],
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
  return [{
    path: ['digest'],
    message: `expected a digest from crypto.getHashes(), found ${JSON.stringify(digest)}`,
    hint: suggestion ? `did you mean \`${suggestion}\`?` : 'write e.g. `digest: sha512` (or sha256, sha1)',
  }];
}

export function runTask({ iterations, keylen, digest, sync }) {
  if (sync) {
    crypto.pbkdf2Sync('password', 'salt', iterations, keylen, digest);
    return undefined;
  }
  return pbkdf2('password', 'salt', iterations, keylen, digest);
}
