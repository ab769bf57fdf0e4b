// The libuv pool size in effect, computed the way libuv's init_threads() does it, because what
// UV_THREADPOOL_SIZE says and what a process gets differ: libuv reads it with C atoi() into an
// unsigned int, then turns 0 into 1 and caps at 1024. So "abc" and "" mean 1 (not the default 4),
// "8x" means 8, and "-1" wraps to a huge unsigned number and means 1024. Checked against the
// libuv-worker threads Node 24 actually starts.

const DEFAULT_SIZE = 4;
const MAX_SIZE = 1024;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** @param {string|undefined} value  UV_THREADPOOL_SIZE as the process's environment has it */
export function computeUvThreadpoolSize(value) {
  if (value === undefined) return DEFAULT_SIZE;
  const size = BigInt.asUintN(32, parseAtoi(value));
  if (size === 0n) return 1;
  return size > BigInt(MAX_SIZE) ? MAX_SIZE : Number(size);
}

/** glibc atoi: skip spaces, optional sign, leading digits (strtol clamps to long, then cast to int). */
function parseAtoi(text) {
  const match = /^[ \t\n\v\f\r]*([+-]?)(\d*)/.exec(text);
  if (!match[2]) return 0n;
  const magnitude = BigInt(match[2]);
  const signed = match[1] === '-' ? -magnitude : magnitude;
  if (signed > INT64_MAX) return INT64_MAX;
  return signed < INT64_MIN ? INT64_MIN : signed;
}
