// What the process sees of its machine (seen.* in the result): the numbers Node.js and libuv base
// their decisions on, next to the cgroup limits they may or may not reflect.

import os from 'node:os';
import { computeUvThreadpoolSize } from './uv-pool.js';

/** @param {import('./cgroup.js').CgroupSnapshot} cgroup */
export function readSeen(cgroup, env = process.env) {
  const cpusLength = os.cpus().length;
  return {
    // availableParallelism() exists from Node 18.14; the fallback keeps older runtimes honest.
    available_parallelism: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpusLength,
    cpus_length: cpusLength,
    cpu_quota: cgroup.cpuQuota,
    cpuset: cgroup.cpuset,
    uv_threadpool_size: computeUvThreadpoolSize(env.UV_THREADPOOL_SIZE),
    node_version: process.version,
    cgroup_version: cgroup.version,
  };
}
