// A cell as the workloads' capacity models see it (workloads/*.js `model.predict`): its parameters and the
// capacity axes turned into numbers, with Node's and the spread's defaults where an axis is not set.
import { AXES } from '../domain/axes.js';
import { usableCpus } from '../domain/usable-cpus.js';

/**
 * Axes a capacity model explains; every other axis (node, engine, an environment variable) may change the work
 * itself.
 */
export const CAPACITY_AXES = ['cpus', 'cpuset', 'uv_threadpool_size', 'workers', 'cluster'];

/**
 * @param {{ values: Record<string, unknown>, params: object }} cell  run.json's cell: axis values and the workload's
 *   filled-in params
 * @param {number|null} hostCpus
 * @param {{ takenCpus?: number }} [host]  takenCpus: the CPU time per second the rest of the host took from this
 *   cell's CPUs while it ran (runner/model/host-share.js); 0 when unknown
 * @returns {{ params: object, allowedCpus: number, cpus: number, takenCpus: number, pool: number, workers: number,
 *   cluster: number }|null}  allowedCpus: what the cell was given (quota, cpuset, host); cpus: what it could use,
 *   allowed less what the others took; null when the usable CPUs are unknown
 */
export function toModelCell({ values, params }, hostCpus, { takenCpus = 0 } = {}) {
  const allowedCpus = usableCpus(values, hostCpus);
  if (allowedCpus === null || !params) return null;
  return {
    params,
    allowedCpus,
    cpus: leaveCpus(allowedCpus, hostCpus, takenCpus),
    takenCpus,
    pool: values.uv_threadpool_size ?? AXES.uv_threadpool_size.unset,
    workers: values.workers ?? 0,
    cluster: values.cluster ?? 0,
  };
}

/**
 * What a cell allowed `allowed` CPUs can use on a host of `hostCpus` whose other programs took `taken` CPU-s a
 * second: what the others left, never more than allowed. A cell allowed fewer CPUs than the host has loses
 * nothing until the others need more than the CPUs it could not use anyway (as interference_pct counts it).
 */
export function leaveCpus(allowed, hostCpus, taken) {
  if (!Number.isFinite(hostCpus) || !(taken > 0)) return allowed;
  return Math.max(0, Math.min(allowed, hostCpus - taken));
}
