// pbkdf2: the classic libuv-pool workload. Its parameters, their defaults and the checks JSON Schema cannot do.

import { getHashes } from 'node:crypto';
import { suggestName } from '../suggest.js';

export const pbkdf2 = {
  description:
    'crypto.pbkdf2 calls started at once. Async calls queue on the libuv thread pool (UV_THREADPOOL_SIZE), ' +
    'so they finish in waves of pool size; sync calls block the thread that makes them.',
  params: {
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
  },
  checkParams,
};

/** Issues with paths relative to params.pbkdf2. */
function checkParams({ digest }) {
  // The check runs in the runner's Node.js; the images' Node.js versions share its OpenSSL digests in practice.
  const hashes = getHashes();
  if (typeof digest !== 'string' || hashes.includes(digest)) return [];
  const suggestion = suggestName(digest, hashes);
  return [{
    path: ['digest'],
    message: `expected a digest from crypto.getHashes(), found ${JSON.stringify(digest)}`,
    hint: suggestion ? `did you mean \`${suggestion}\`?` : 'write e.g. `digest: sha512` (or sha256, sha1)',
  }];
}
