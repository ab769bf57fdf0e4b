// pbkdf2: the classic libuv-pool workload. Async calls queue on the process's one libuv pool
// (UV_THREADPOOL_SIZE threads), so N calls finish in waves of pool size; pbkdf2Sync blocks the
// thread that calls it, so only worker threads or cluster processes run sync calls side by side.

import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { WorkloadError } from '../errors.js';

const pbkdf2 = promisify(crypto.pbkdf2);

export const defaults = { tasks: 16, iterations: 100000, keylen: 512, digest: 'sha512', sync: false };

export function checkParams({ digest }) {
  // One cheap derivation is the exact test of what pbkdf2 accepts (names are case-insensitive, aliases vary).
  try {
    crypto.pbkdf2Sync('', '', 1, 1, digest);
  } catch {
    throw new WorkloadError(
      'ERR_SPEC_INVALID',
      `LAB_SPEC.params.digest: expected a digest this Node.js supports (e.g. sha512, sha256, sha1), got ${JSON.stringify(digest)}`,
    );
  }
}

export function runTask({ iterations, keylen, digest, sync }) {
  if (sync) {
    crypto.pbkdf2Sync('password', 'salt', iterations, keylen, digest);
    return undefined;
  }
  return pbkdf2('password', 'salt', iterations, keylen, digest);
}
